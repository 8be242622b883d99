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
}

/** Always on screen and announced politely, so saving never needs to be wondered about. */
export function StatusIndicator({ status, error, submittedAt }: StatusIndicatorProps) {
  const text = submittedAt
    ? `Submitted ${new Date(submittedAt).toLocaleString()}`
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
