import { memo } from "react";
import { bandClass } from "./bands";
import { labelText, type Comparison } from "./comparison";
import { Highlight } from "./Highlight";
import { formatTime, type TurnView } from "./model";
import type { TimedWord } from "./playback";
import { UNALIGNED } from "./state";

interface TurnRowProps {
  turn: TurnView;
  segment: number;
  changed: boolean;
  /** Adjudicating: every annotator's label for this turn is shown beside it. */
  comparison?: Comparison;
  selected: boolean;
  focused: boolean;
  /** The first turn of its segment's run: a boundary is drawn above it. */
  runStart: boolean;
  /** Review mode: the mode shows this turn, and whether it is reviewed yet. */
  toReview?: boolean;
  reviewed?: boolean;
  query: string;
  /** The recording is playing this turn. */
  playing?: boolean;
  /** Its recognised words with their times, shown while it plays so the word can follow. */
  words?: readonly TimedWord[];
  /** The word under the playhead, an index into `words`. */
  playingWord?: number | null;
  measure: (element: Element | null) => void;
  onSelect: (turn: number, extend: boolean) => void;
}

export const TurnRow = memo(function TurnRow({
  turn,
  segment,
  changed,
  comparison,
  selected,
  focused,
  runStart,
  toReview = false,
  reviewed = false,
  query,
  playing = false,
  words,
  playingWord = null,
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
    comparison?.disagreements[turn.index] && "disputed",
    playing && "playing",
    toReview && "to-review",
    toReview && reviewed && "reviewed",
  ];
  const disputed = comparison?.disagreements[turn.index] ?? false;
  const assignment = segment === UNALIGNED ? "unaligned" : `§ ${segment + 1}`;
  const label = `Turn ${turn.index + 1}, ${segment === UNALIGNED ? "unaligned" : `segment ${segment + 1}`}${
    turn.lowConfidence ? ", low confidence" : ""
  }${changed ? ", changed" : ""}${disputed ? ", annotators disagree" : ""}${
    toReview ? (reviewed ? ", reviewed" : ", to review") : ""
  }`;
  return (
    <div
      ref={measure}
      data-index={turn.index}
      id={`turn-${turn.index}`}
      role="option"
      aria-selected={selected}
      className={classes.filter(Boolean).join(" ")}
      onMouseDown={(event) => {
        // Shift-click extends the selection; without this it would also select page text.
        if (event.shiftKey) event.preventDefault();
      }}
      onClick={(event) => onSelect(turn.index, event.shiftKey)}
    >
      {/* The option's name is its content: this summary, then what is said (the head below
          is for the eye), so a screen reader hears the text and the name holds all the visible
          words (WCAG 2.5.3). */}
      <span className="visually-hidden" data-testid="turn-summary">
        {label}:{" "}
      </span>
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
        {toReview && (
          <span className="flag flag-review">{reviewed ? "reviewed" : "to review"}</span>
        )}
        <span className="assignment">{assignment}</span>
      </div>
      {comparison && (
        <ul className="sides" aria-label="Annotators' labels">
          {comparison.annotators.map((annotator, index) => (
            <li
              key={annotator.name}
              className={annotator.labels[turn.index] === segment ? "side agrees" : "side"}
            >
              <kbd>{index + 1}</kbd> {annotator.name}: {labelText(annotator.labels[turn.index])}
            </li>
          ))}
        </ul>
      )}
      {playing && words && words.length > 0 ? (
        <p className="turn-text" data-testid="playing-words">
          {words.map((word, index) => (
            <span key={index}>
              {index > 0 && " "}
              <span className={index === playingWord ? "word playing-word" : "word"}>
                {word.text}
              </span>
            </span>
          ))}
        </p>
      ) : (
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
      )}
    </div>
  );
});
