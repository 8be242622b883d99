import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError } from "../api/client";

export type Loaded<T> =
  | { state: "loading" }
  | { state: "failed"; message: string; status: number | null }
  | { state: "ready"; data: T };

/**
 * Loads once, again on `reload()`, and every `pollMs` while `keepPolling(data)` holds, so
 * pages follow jobs without a timer that outlives them. A reload keeps the old data on screen.
 */
export function useLoad<T>(
  load: (signal: AbortSignal) => Promise<T>,
  deps: readonly unknown[],
  poll?: { ms: number; while: (data: T) => boolean },
): [Loaded<T>, () => void] {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: "loading" });
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  const pollRef = useRef(poll);
  useEffect(() => {
    loadRef.current = load;
    pollRef.current = poll;
  });

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = () => {
      loadRef.current(controller.signal).then(
        (data) => {
          if (controller.signal.aborted) return;
          setLoaded({ state: "ready", data });
          const current = pollRef.current;
          if (current && current.while(data)) timer = setTimeout(run, current.ms);
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          setLoaded({
            state: "failed",
            message: error instanceof Error ? error.message : String(error),
            status: error instanceof ApiError ? error.status : null,
          });
        },
      );
    };
    run();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
    // The caller's deps say when to load again; `load` itself changes every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [generation, ...deps]);

  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return [loaded, reload];
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
