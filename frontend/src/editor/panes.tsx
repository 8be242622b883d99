import { useMemo, type Ref } from "react";
import type { Comparison } from "./comparison";
import { SegmentCard } from "./SegmentCard";
import { TurnRow } from "./TurnRow";
import { VirtualList, type VirtualListHandle } from "./VirtualList";
import { runStarts } from "./linkedScroll";
import { importanceBySegment, type SegmentView, type TurnView } from "./model";
import type { TimedWord } from "./playback";
import { UNALIGNED } from "./state";

/** Line metrics of styles.css, so that first estimates are near the measured heights. */
const CHARACTERS_PER_LINE = 78;
const LINE_HEIGHT = 21;
const TURN_CHROME = 46;
const SEGMENT_CHROME = 52;
const BLOCK_GAP = 8;
const SECTION_TITLE = 40;

function lines(characters: number): number {
  return Math.max(1, Math.ceil(characters / CHARACTERS_PER_LINE));
}

interface TranscriptPaneProps {
  turns: TurnView[];
  assignments: readonly number[];
  preAlignment: readonly number[];
  comparison?: Comparison;
  focus: number;
  first: number;
  last: number;
  query: string;
  /** Per turn, its words with their times (none when the transcript has no word times). */
  words?: readonly (readonly TimedWord[])[];
  /** The turn and word under the playhead while the recording plays. */
  playingTurn?: number | null;
  playingWord?: number | null;
  /** Review mode: the turns it shows, and per turn whether it is reviewed. */
  toReview?: ReadonlySet<number>;
  reviewed?: readonly boolean[];
  listRef: Ref<VirtualListHandle>;
  onSelect: (turn: number, extend: boolean) => void;
}

export function TranscriptPane({
  turns,
  assignments,
  preAlignment,
  comparison,
  focus,
  first,
  last,
  query,
  words,
  playingTurn = null,
  playingWord = null,
  toReview,
  reviewed,
  listRef,
  onSelect,
}: TranscriptPaneProps) {
  const starts = useMemo(
    () => new Set(runStarts(assignments).map((start) => start.turn)),
    [assignments],
  );
  return (
    <VirtualList
      handle={listRef}
      count={turns.length}
      estimateSize={(index) => TURN_CHROME + lines(turns[index]!.characters) * LINE_HEIGHT}
      className="pane-scroll"
      role="listbox"
      aria-label="Transcript turns"
      aria-multiselectable="true"
      aria-activedescendant={`turn-${focus}`}
      tabIndex={0}
      data-testid="turn-list"
      renderItem={(index, measure) => (
        <TurnRow
          key={index}
          turn={turns[index]!}
          segment={assignments[index]!}
          changed={assignments[index] !== preAlignment[index]}
          comparison={comparison}
          selected={index >= first && index <= last}
          focused={index === focus}
          runStart={starts.has(index)}
          toReview={toReview?.has(index) ?? false}
          reviewed={reviewed?.[index] ?? false}
          query={query}
          playing={index === playingTurn}
          words={words?.[index]}
          playingWord={index === playingTurn ? playingWord : null}
          measure={measure}
          onSelect={onSelect}
        />
      )}
    />
  );
}

export interface SegmentTurns {
  first: number;
  last: number;
  count: number;
}

/** For each segment, the turns now assigned to it. */
export function turnsBySegment(
  assignments: readonly number[],
  segmentCount: number,
): (SegmentTurns | null)[] {
  const result: (SegmentTurns | null)[] = new Array<SegmentTurns | null>(segmentCount).fill(null);
  assignments.forEach((segment, turn) => {
    if (segment === UNALIGNED || segment >= segmentCount) return;
    const entry = result[segment];
    if (entry) {
      entry.last = turn;
      entry.count += 1;
    } else {
      result[segment] = { first: turn, last: turn, count: 1 };
    }
  });
  return result;
}

interface ReportPaneProps {
  segments: SegmentView[];
  assignments: readonly number[];
  /** Spoken words per turn, for the importance bars of a talk project's paper. */
  turnWords: readonly number[];
  currentSegment: number;
  selectionLabel: string | null;
  query: string;
  listRef: Ref<VirtualListHandle>;
  onAssign: (segment: number) => void;
  onShowTurns: (first: number, last: number) => void;
}

export function ReportPane({
  segments,
  assignments,
  turnWords,
  currentSegment,
  selectionLabel,
  query,
  listRef,
  onAssign,
  onShowTurns,
}: ReportPaneProps) {
  const turns = useMemo(
    () => turnsBySegment(assignments, segments.length),
    [assignments, segments.length],
  );
  const isPaper = segments.some((segment) => segment.section !== null);
  const importance = useMemo(
    () => (isPaper ? importanceBySegment(assignments, turnWords, segments.length) : null),
    [isPaper, assignments, turnWords, segments.length],
  );
  const mostImportant = importance ? Math.max(1, ...importance) : 1;
  return (
    <VirtualList
      handle={listRef}
      count={segments.length}
      estimateSize={(index) => {
        const segment = segments[index]!;
        return (
          SEGMENT_CHROME +
          (segment.opensSection ? SECTION_TITLE : 0) +
          segment.blocks.length * BLOCK_GAP +
          segment.blocks.reduce((sum, block) => sum + lines(block.text.length), 0) * LINE_HEIGHT
        );
      }}
      className="pane-scroll"
      role="list"
      aria-label="Report segments"
      tabIndex={0}
      data-testid="segment-list"
      renderItem={(index, measure) => (
        <SegmentCard
          key={index}
          segment={segments[index]!}
          count={segments.length}
          turns={turns[index] ?? null}
          importance={importance ? { words: importance[index]!, most: mostImportant } : null}
          current={index === currentSegment}
          selectionLabel={selectionLabel}
          query={query}
          measure={measure}
          onAssign={onAssign}
          onShowTurns={onShowTurns}
        />
      )}
    />
  );
}
