import { useEffect, useRef } from "react";
import { apiRequest } from "../api/client";

/** Quiet time before the turn the editor is at is sent: moving through turns sends one
 * request when the annotator settles, not one per key. */
const SEND_AFTER_MS = 1500;

function sendPosition(projectId: number, documentId: number, turn: number, keepalive = false) {
  return apiRequest("PUT", "projects/{project_id}/documents/{document_id}/position/", {
    path: { project_id: projectId, document_id: documentId },
    body: { turn },
    keepalive,
  }).catch(() => undefined);
}

/**
 * Keeps the server told where the editor is in the document, so that another browser or
 * device opens it there. Best effort: a failed request only costs that convenience; the last
 * position is sent as the page goes away.
 */
export function useReadingPosition(projectId: number, documentId: number, turn: number): void {
  const pending = useRef<number | null>(null);

  useEffect(() => {
    pending.current = turn;
    const timer = setTimeout(() => {
      pending.current = null;
      void sendPosition(projectId, documentId, turn);
    }, SEND_AFTER_MS);
    return () => clearTimeout(timer);
  }, [projectId, documentId, turn]);

  useEffect(() => {
    const flush = () => {
      if (pending.current === null) return;
      const last = pending.current;
      pending.current = null;
      void sendPosition(projectId, documentId, last, true);
    };
    window.addEventListener("pagehide", flush);
    return () => {
      window.removeEventListener("pagehide", flush);
      flush();
    };
  }, [projectId, documentId]);
}
