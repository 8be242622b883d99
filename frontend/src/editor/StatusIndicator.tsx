import { dateTime } from "../text/format";
import type { SaveStatus } from "./useAutosave";

const MESSAGES: Record<SaveStatus, string> = {
  saved: "All changes saved",
  unsaved: "Unsaved changes…",
  saving: "Saving…",
  offline: "Offline: changes kept in this browser, retrying",
  error: "Not saved",
  conflict: "Changed elsewhere: choose a version",
};

interface StatusIndicatorProps {
  status: SaveStatus;
  error: string | null;
  submittedAt: string | null;
  /** "Submitted", or "Completed" for an adjudication. */
  submittedWord?: string;
  readOnly?: boolean;
}

/** Always on screen and announced politely, so saving never needs to be wondered about. */
export function StatusIndicator({
  status,
  error,
  submittedAt,
  submittedWord = "Submitted",
  readOnly = false,
}: StatusIndicatorProps) {
  const text = submittedAt
    ? `${submittedWord} ${dateTime(submittedAt)}`
    : readOnly
      ? "Read-only"
      : status === "error" && error
        ? `Not saved: ${error}`
        : MESSAGES[status];
  return (
    <p
      className={`save-status save-${submittedAt ? "submitted" : status}`}
      role="status"
      data-testid="save-status"
    >
      {text}
    </p>
  );
}
