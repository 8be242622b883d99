import { useEffect, useState, type ReactNode } from "react";
import { ApiError, NetworkError } from "../api/client";
import { Link } from "../app/router";

type Load<T> =
  | { state: "loading" }
  | { state: "failed"; message: string; retryable: boolean }
  | { state: "ready"; value: T };

function describeFailure(error: unknown, refusal: string): { message: string; retryable: boolean } {
  if (error instanceof NetworkError) {
    return { message: "The server cannot be reached. Check your connection.", retryable: true };
  }
  if (error instanceof ApiError && (error.status === 404 || error.status === 403)) {
    return { message: refusal, retryable: false };
  }
  return { message: error instanceof Error ? error.message : String(error), retryable: true };
}

interface PayloadLoaderProps<T> {
  /** Called again on "Try again"; a change of `deps` loads anew. */
  load: (signal: AbortSignal) => Promise<T>;
  deps: readonly unknown[];
  /** What a 403 or 404 means here. */
  refusal: string;
  children: (value: T) => ReactNode;
}

/** One request for a whole page (the editor's, the adjudication's), with its waiting and
 * failure states. */
export function PayloadLoader<T>({ load, deps, refusal, children }: PayloadLoaderProps<T>) {
  const [state, setState] = useState<Load<T>>({ state: "loading" });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal).then(
      (value) => setState({ state: "ready", value }),
      (error: unknown) => {
        if (!controller.signal.aborted) {
          setState({ state: "failed", ...describeFailure(error, refusal) });
        }
      },
    );
    return () => controller.abort();
    // `load` is a new function on every render; `deps` say when it loads something else.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [attempt, ...deps]);

  if (state.state === "ready") return <>{children(state.value)}</>;
  return (
    <main className="page-message">
      {state.state === "loading" ? (
        <p aria-busy="true" role="status">
          Opening the document…
        </p>
      ) : (
        <div role="alert">
          <h1>The document could not be opened</h1>
          <p>{state.message}</p>
          {state.retryable && (
            <button
              type="button"
              onClick={() => {
                setState({ state: "loading" });
                setAttempt((count) => count + 1);
              }}
            >
              Try again
            </button>
          )}
        </div>
      )}
      <p>
        <Link href="/">Back to your documents</Link>
      </p>
    </main>
  );
}
