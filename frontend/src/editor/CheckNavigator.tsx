import type { Command } from "./shortcuts";

interface CheckNavigatorProps {
  counts: { changed: number; lowConfidence: number; disagreements?: number };
  linked: boolean;
  onLinkedChange: (linked: boolean) => void;
  onCommand: (command: Command) => void;
}

/** Jumps between the turns worth a look, and the switch for linked scrolling. */
export function CheckNavigator({ counts, linked, onLinkedChange, onCommand }: CheckNavigatorProps) {
  return (
    <>
      <div className="tool-group" role="group" aria-label="Turns to check">
        {counts.disagreements !== undefined && (
          <>
            <span className="selection-label">Disputed ({counts.disagreements}):</span>
            <button
              type="button"
              onClick={() => onCommand("previousDisagreement")}
              aria-label="Previous disagreement"
              aria-keyshortcuts="Shift+D"
            >
              ‹
            </button>
            <button
              type="button"
              onClick={() => onCommand("nextDisagreement")}
              aria-label="Next disagreement"
              aria-keyshortcuts="D"
            >
              ›
            </button>
          </>
        )}
        <span className="selection-label">Low confidence ({counts.lowConfidence}):</span>
        <button
          type="button"
          onClick={() => onCommand("previousLowConfidence")}
          aria-label="Previous low-confidence turn"
          aria-keyshortcuts="Shift+N"
        >
          ‹
        </button>
        <button
          type="button"
          onClick={() => onCommand("nextLowConfidence")}
          aria-label="Next low-confidence turn"
          aria-keyshortcuts="N"
        >
          ›
        </button>
        <span className="selection-label">Changed ({counts.changed}):</span>
        <button
          type="button"
          onClick={() => onCommand("previousChanged")}
          aria-label="Previous changed turn"
          aria-keyshortcuts="Shift+C"
        >
          ‹
        </button>
        <button
          type="button"
          onClick={() => onCommand("nextChanged")}
          aria-label="Next changed turn"
          aria-keyshortcuts="C"
        >
          ›
        </button>
      </div>
      <label className="linked-toggle">
        <input
          type="checkbox"
          checked={linked}
          onChange={(event) => onLinkedChange(event.target.checked)}
        />
        Scroll together
      </label>
    </>
  );
}
