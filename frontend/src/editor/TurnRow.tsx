import { memo } from "react";
import { bandClass } from "./bands";
import { Highlight } from "./Highlight";
import { formatTime, type TurnView } from "./model";
import { UNALIGNED } from "./state";

interface TurnRowProps {
  turn: TurnView;
  segment: number;
  changed: boolean;
  selected: boolean;
  focused: boolean;
  /** The first turn of its segment's run: a boundary is drawn above it. */
  runStart: boolean;
  query: string;
  measure: (element: Element | null) => void;
  onSelect: (turn: number, extend: boolean) => void;
}

export const TurnRow = memo(function TurnRow({
  turn,
  segment,
  changed,
  selected,
  focused,
  runStart,
  query,
  measure,
  onSelect,
}: TurnRowProps) {
  const classes = [
    "turn",
    bandClass(segment),
    selected && "selected",
    focused && "focused",
    runStart && "run-start",
    changed && "changed",
  ];
  const assignment = segment === UNALIGNED ? "unaligned" : `§ ${segment + 1}`;
  const label = `Turn ${turn.index + 1}, ${segment === UNALIGNED ? "unaligned" : `segment ${segment + 1}`}${
    turn.lowConfidence ? ", low confidence" : ""
  }${changed ? ", changed" : ""}`;
  return (
    <div
      ref={measure}
      data-index={turn.index}
      id={`turn-${turn.index}`}
      role="option"
      aria-selected={selected}
      aria-label={label}
      className={classes.filter(Boolean).join(" ")}
      onMouseDown={(event) => {
        // Shift-click extends the selection; without this it would also select page text.
        if (event.shiftKey) event.preventDefault();
      }}
      onClick={(event) => onSelect(turn.index, event.shiftKey)}
    >
      <div className="turn-head" aria-hidden="true">
        <span className="turn-number">{turn.index + 1}</span>
        {turn.start !== null && (
          <span className="timing">
            {formatTime(turn.start)}
            {turn.end !== null && `–${formatTime(turn.end)}`}
          </span>
        )}
        {turn.speaker && <span className="speaker">{turn.speaker}</span>}
        {turn.lowConfidence && (
          <span
            className="flag flag-low"
            title={`Pre-alignment confidence ${Math.round((turn.confidence ?? 0) * 100)} %`}
          >
            low confidence
          </span>
        )}
        {changed && <span className="flag flag-changed">changed</span>}
        <span className="assignment">{assignment}</span>
      </div>
      <p className="turn-text">
        {turn.pieces.map((piece, index) =>
          piece.unknown ? (
            <span
              key={index}
              className="unknown-word"
              title="Word the speech recogniser could not read"
            >
              {" … "}
            </span>
          ) : (
            <Highlight key={index} text={piece.text} query={query} />
          ),
        )}
      </p>
    </div>
  );
});
