import type { DocumentReview } from "../api/annotation";
import { counted } from "../text/plural";
import type { ReviewCounts } from "./review";
import type { Command } from "./shortcuts";

interface ReviewBarProps {
  review: DocumentReview;
  active: boolean;
  counts: ReviewCounts;
  /** Turns drawn for the spot check that are neither read nor changed. */
  spotCheckUnread: number;
  editable: boolean;
  onCommand: (command: Command) => void;
}

function percent(share: number): string {
  return `${(share * 100).toFixed(1)} %`;
}

/** The review mode's switch and, while it is on, where the annotator stands and what to do. */
export function ReviewBar({
  review,
  active,
  counts,
  spotCheckUnread,
  editable,
  onCommand,
}: ReviewBarProps) {
  if (review.threshold === null) return null;
  const threshold = `confidence below ${review.threshold.toFixed(2)}${review.automatic ? " (auto)" : ""}`;
  if (!active) {
    return (
      <div className="review-bar" role="region" aria-label="Review mode">
        <span>
          Review mode would show {counted(counts.shown, "turn")} ({threshold}), and the turns next
          to each one you change.
        </span>
        <button type="button" onClick={() => onCommand("toggleReview")} aria-keyshortcuts="V">
          Start review mode
        </button>
      </div>
    );
  }
  return (
    <div className="review-bar" role="region" aria-label="Review mode">
      <strong>Review mode</strong>
      <span data-testid="review-progress">
        {counts.shownReviewed} of {counted(counts.shown, "turn")} to review reviewed
        {counts.nextToChanges > 0 && ` (${counts.nextToChanges} next to your changes)`}
      </span>
      <span className="muted">
        {threshold}, and next to each change, to the end of its run; if the rest is accepted, about{" "}
        {percent(review.estimated_residual_error ?? 0)} of turns stay wrong
      </span>
      <SpotCheckNote review={review} unread={spotCheckUnread} />
      <button
        type="button"
        onClick={() => onCommand("previousLowConfidence")}
        aria-keyshortcuts="Shift+N"
      >
        Previous to review
      </button>
      <button
        type="button"
        onClick={() => onCommand("confirmTurn")}
        aria-keyshortcuts="Enter"
        disabled={!editable}
      >
        Confirm
      </button>
      <button type="button" onClick={() => onCommand("nextLowConfidence")} aria-keyshortcuts="N">
        Next to review
      </button>
      <button
        type="button"
        onClick={() => onCommand("acceptRest")}
        aria-keyshortcuts="Shift+A"
        disabled={!editable}
      >
        Accept the rest…
      </button>
      <button type="button" onClick={() => onCommand("toggleReview")} aria-keyshortcuts="V">
        Leave review mode
      </button>
    </div>
  );
}

/** The spot check the iteration asks for: what it will be before the draw, then how far the
 * annotator is through the drawn turns. */
function SpotCheckNote({ review, unread }: { review: DocumentReview; unread: number }) {
  if (review.spot_check === null) return null;
  const drawn = review.spot_check_turns.length;
  if (drawn === 0) {
    return (
      <span className="muted">
        then a spot check: {percent(review.spot_check)} of the turns you leave unread, drawn at
        random, to read before accepting the rest
      </span>
    );
  }
  return (
    <span data-testid="spot-check-progress">
      Spot check: {drawn - unread} of {counted(drawn, "drawn turn")} read
    </span>
  );
}
