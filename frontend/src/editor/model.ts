/**
 * What the editor derives once from the payload, so that rendering and searching a long
 * meeting never re-parse its texts: formatted blocks, searchable text, size estimates.
 */
import type { EditorPayload } from "../api/annotation";
import {
  parseBlocks,
  parseTranscript,
  searchableText,
  speakerOf,
  tidySpacing,
  type Block,
  type TranscriptPiece,
} from "./markup";
import { UNALIGNED } from "./state";

export interface TurnView {
  index: number;
  pieces: TranscriptPiece[];
  speaker: string | null;
  start: number | null;
  end: number | null;
  confidence: number | null;
  lowConfidence: boolean;
  searchText: string;
  characters: number;
  /** Spoken words, which make the importance of the segment the turn is aligned to. */
  words: number;
}

export interface SegmentView {
  index: number;
  blocks: Block[];
  speaker: string | null;
  searchText: string;
  characters: number;
  /** A talk project's paper section; null in a meeting project. */
  section: string | null;
  /** The first segment of its section, which carries the section's title. */
  opensSection: boolean;
  /** In a section the alignment leaves out (Abstract, Related Work...): shown greyed. */
  excluded: boolean;
}

export interface EditorModel {
  turns: TurnView[];
  segments: SegmentView[];
  preAlignment: number[];
}

export function buildModel(payload: EditorPayload): EditorModel {
  const confidences = payload.pre_alignment?.confidences ?? [];
  // The project's threshold: below it a turn is worth a second look.
  const lowBelow = payload.pre_alignment?.low_confidence_below ?? 0;
  const turns = payload.turns.map((turn, index): TurnView => {
    const confidence = confidences[index] ?? null;
    return {
      index,
      pieces: parseTranscript(turn.text),
      speaker: turn.speaker || null,
      start: turn.start,
      end: turn.end,
      confidence,
      lowConfidence: confidence !== null && confidence < lowBelow,
      searchText: searchableText(turn.text),
      characters: turn.text.length,
      words: turn.word_count,
    };
  });
  const excluded = new Set(payload.excluded_sections);
  const segments = payload.segments.map((segment, index): SegmentView => {
    const blocks = parseBlocks(segment.text);
    const section = segment.section || null;
    return {
      index,
      blocks,
      speaker: segment.speaker ? tidySpacing(segment.speaker) : speakerOf(blocks),
      searchText: searchableText(segment.text),
      characters: segment.text.length,
      section,
      opensSection:
        section !== null && (index === 0 || payload.segments[index - 1]!.section !== section),
      excluded: section !== null && excluded.has(section),
    };
  });
  const preAlignment =
    payload.pre_alignment?.labels ?? new Array<number>(turns.length).fill(UNALIGNED);
  return { turns, segments, preAlignment };
}

/**
 * TalkSumm's importance of each segment under the current assignments: the spoken words of
 * the turns aligned to it (the export's `score`, live as the annotator corrects).
 */
export function importanceBySegment(
  assignments: readonly number[],
  turnWords: readonly number[],
  segmentCount: number,
): number[] {
  const importance = new Array<number>(segmentCount).fill(0);
  assignments.forEach((segment, turn) => {
    if (segment === UNALIGNED || segment >= segmentCount) return;
    importance[segment]! += turnWords[turn] ?? 0;
  });
  return importance;
}

/** "1:02:03" or "2:03": timings as a transcript reader expects them. */
export function formatTime(seconds: number): string {
  const whole = Math.floor(seconds);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = String(whole % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

/** The next (or previous) index after `from` whose item passes `test`, wrapping around. */
export function findNext(
  count: number,
  from: number,
  direction: 1 | -1,
  test: (index: number) => boolean,
): number | null {
  for (let step = 1; step <= count; step += 1) {
    const index = (((from + direction * step) % count) + count) % count;
    if (test(index)) return index;
  }
  return null;
}
