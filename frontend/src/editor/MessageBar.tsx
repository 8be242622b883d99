import type { Proposal } from "./state";

interface MessageBarProps {
  notice: string | null;
  proposal: Proposal | null;
  onAccept: () => void;
  onDismiss: () => void;
}

/** Why an edit was refused, or the boundary move offered instead; Enter accepts the offer. */
export function MessageBar({ notice, proposal, onAccept, onDismiss }: MessageBarProps) {
  if (proposal) {
    return (
      <div className="message-bar proposal" role="alert">
        <p>
          {proposal.reason} Move the boundary instead:{" "}
          <strong>{proposal.change.description}</strong>?
        </p>
        <button type="button" className="primary" onClick={onAccept} autoFocus>
          Move the boundary
        </button>
        <button type="button" onClick={onDismiss}>
          Cancel
        </button>
      </div>
    );
  }
  if (notice) {
    return (
      <div className="message-bar notice" role="alert">
        <p>{notice}</p>
        <button type="button" onClick={onDismiss} aria-label="Dismiss the message">
          ×
        </button>
      </div>
    );
  }
  return null;
}
