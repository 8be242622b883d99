import { useEffect, useState } from "react";
import { fetchEditorPayload, type EditorPayload } from "../api/annotation";
import { ApiError, NetworkError } from "../api/client";
import { Link } from "../app/router";
import { Editor } from "./Editor";
import { loadDraft, type Draft } from "./draft";

interface EditorPageProps {
  projectId: number;
  documentId: number;
  userId: number;
}

type Load =
  | { state: "loading" }
  | { state: "failed"; message: string; retryable: boolean }
  | { state: "ready"; payload: EditorPayload; draft: Draft | null };

function describeFailure(error: unknown): { message: string; retryable: boolean } {
  if (error instanceof NetworkError) {
    return { message: "The server cannot be reached. Check your connection.", retryable: true };
  }
  if (error instanceof ApiError && (error.status === 404 || error.status === 403)) {
    return { message: "This document does not exist or is not assigned to you.", retryable: false };
  }
  return { message: error instanceof Error ? error.message : String(error), retryable: true };
}

export function EditorPage({ projectId, documentId, userId }: EditorPageProps) {
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    fetchEditorPayload(projectId, documentId, controller.signal).then(
      (payload) => setLoad({ state: "ready", payload, draft: loadDraft(documentId, userId) }),
      (error: unknown) => {
        if (!controller.signal.aborted) setLoad({ state: "failed", ...describeFailure(error) });
      },
    );
    return () => controller.abort();
  }, [attempt, documentId, projectId, userId]);

  if (load.state === "ready") {
    return <Editor payload={load.payload} userId={userId} draft={load.draft} />;
  }
  return (
    <main className="page-message">
      {load.state === "loading" ? (
        <p aria-busy="true" role="status">
          Opening the document…
        </p>
      ) : (
        <div role="alert">
          <h1>The document could not be opened</h1>
          <p>{load.message}</p>
          {load.retryable && (
            <button
              type="button"
              onClick={() => {
                setLoad({ state: "loading" });
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
