import { useEffect, useRef } from "react";
import { apiRequest } from "../api/client";

/** Quiet time before the turn the editor is at is sent: moving through turns sends one
 * request when the annotator settles, not one per key. */
const SEND_AFTER_MS = 1500;

/**
 * Keeps the server told where the editor is in the document, so that another browser or
 * device opens it there. Best effort: a failed request only costs that convenience; the last
 * position is sent as the page goes away.
 */
export function useReadingPosition(projectId: number, documentId: number, turn: number): void {
  const pending = useRef<number | null>(null);
  const path = `projects/${projectId}/documents/${documentId}/position/`;

  useEffect(() => {
    pending.current = turn;
    const timer = setTimeout(() => {
      pending.current = null;
      void apiRequest("PUT", path, { body: { turn } }).catch(() => undefined);
    }, SEND_AFTER_MS);
    return () => clearTimeout(timer);
  }, [path, turn]);

  useEffect(() => {
    const flush = () => {
      if (pending.current === null) return;
      const body = { turn: pending.current };
      pending.current = null;
      void apiRequest("PUT", path, { body, keepalive: true }).catch(() => undefined);
    };
    window.addEventListener("pagehide", flush);
    return () => {
      window.removeEventListener("pagehide", flush);
      flush();
    };
  }, [path]);
}
