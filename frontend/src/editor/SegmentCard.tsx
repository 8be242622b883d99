import { memo } from "react";
import { bandClass } from "./bands";
import { Highlight } from "./Highlight";
import type { SegmentView } from "./model";

interface SegmentCardProps {
  segment: SegmentView;
  count: number;
  turns: { first: number; last: number; count: number } | null;
  /** A talk project's importance: spoken words aligned here, against the paper's most. */
  importance: { words: number; most: number } | null;
  /** Holds the focused turn. */
  current: boolean;
  /** What the Assign button would assign, e.g. "turns 4–6"; null when editing is off. */
  selectionLabel: string | null;
  query: string;
  measure: (element: Element | null) => void;
  onAssign: (segment: number) => void;
  onShowTurns: (first: number, last: number) => void;
}

export const SegmentCard = memo(function SegmentCard({
  segment,
  count,
  turns,
  importance,
  current,
  selectionLabel,
  query,
  measure,
  onAssign,
  onShowTurns,
}: SegmentCardProps) {
  const number = segment.index + 1;
  const turnsText = turns
    ? turns.first === turns.last
      ? `turn ${turns.first + 1}`
      : `turns ${turns.first + 1}–${turns.last + 1}`
    : "no turns";
  return (
    <article
      ref={measure}
      data-index={segment.index}
      id={`segment-${segment.index}`}
      role="listitem"
      aria-setsize={count}
      aria-posinset={number}
      aria-labelledby={`segment-${segment.index}-title`}
      className={[
        "segment",
        bandClass(segment.index),
        current && "current",
        segment.excluded && "excluded",
      ]
        .filter(Boolean)
        .join(" ")}
    >
      {segment.opensSection && (
        <h2 className="section-title" data-testid="section-title">
          {segment.section}
          {segment.excluded && <span className="section-note"> (left out of the alignment)</span>}
        </h2>
      )}
      <header className="segment-head">
        <h3 id={`segment-${segment.index}-title`}>
          <span className="segment-number">§ {number}</span>
          {segment.speaker && <span className="speaker">{segment.speaker}</span>}
        </h3>
        {turns ? (
          <button
            type="button"
            className="link-button segment-turns"
            onClick={() => onShowTurns(turns.first, turns.last)}
            aria-label={`Select ${turnsText} of segment ${number}`}
          >
            {turnsText}
          </button>
        ) : (
          <span className="segment-turns">{turnsText}</span>
        )}
        {importance && (
          <meter
            className="importance"
            min={0}
            max={importance.most}
            value={importance.words}
            aria-label={`Importance of segment ${number}: ${importance.words} spoken words`}
            title={`${importance.words} spoken words`}
          />
        )}
        {selectionLabel && (
          <button
            type="button"
            className="assign-button"
            onClick={() => onAssign(segment.index)}
            aria-label={`Assign ${selectionLabel} to segment ${number}`}
          >
            Assign
          </button>
        )}
      </header>
      <div className="segment-body">
        {segment.blocks.map((block, index) => {
          const text = <Highlight text={block.text} query={query} />;
          switch (block.kind) {
            case "heading":
              return (
                <p key={index} className="block-heading" role="heading" aria-level={4}>
                  {text}
                </p>
              );
            case "speaker":
              return (
                <p key={index} className="block-speaker">
                  {text}
                </p>
              );
            case "table":
              return (
                <p key={index} className="block-table">
                  {text}
                </p>
              );
            default:
              return <p key={index}>{text}</p>;
          }
        })}
      </div>
    </article>
  );
});
