/**
 * Linked scrolling: the report pane follows the transcript pane (or the reverse) so that each
 * segment stands beside its run of turns. Where a run starts, both panes line up exactly; in
 * between, offsets are interpolated linearly, so that scrolling stays smooth across long
 * segments, unaligned turns and segments without turns.
 */
import { UNALIGNED } from "./state";

/** Matching pixel offsets in the two panes: `turns` in the transcript, `segments` in the report. */
export interface Anchor {
  turns: number;
  segments: number;
}

/** The first turn of every run of turns assigned to one segment, with that segment. */
export function runStarts(assignments: readonly number[]): { turn: number; segment: number }[] {
  const starts: { turn: number; segment: number }[] = [];
  let previous = UNALIGNED;
  assignments.forEach((segment, turn) => {
    if (segment !== UNALIGNED && segment !== previous) starts.push({ turn, segment });
    if (segment !== UNALIGNED) previous = segment;
  });
  return starts;
}

/**
 * Anchors at every run start, plus both ends. Anchors that would go backwards on either side
 * (a document that is out of order) are skipped so the mapping stays monotone.
 */
export function buildAnchors(
  assignments: readonly number[],
  turnOffset: (turn: number) => number,
  segmentOffset: (segment: number) => number,
  totals: Anchor,
): Anchor[] {
  const anchors: Anchor[] = [{ turns: 0, segments: 0 }];
  for (const { turn, segment } of runStarts(assignments)) {
    const anchor = { turns: turnOffset(turn), segments: segmentOffset(segment) };
    const last = anchors[anchors.length - 1]!;
    if (anchor.turns > last.turns && anchor.segments >= last.segments) anchors.push(anchor);
  }
  const last = anchors[anchors.length - 1]!;
  if (totals.turns > last.turns && totals.segments >= last.segments) anchors.push(totals);
  return anchors;
}

/** The offset in the `to` pane matching `offset` in the `from` pane. */
export function follow(
  anchors: readonly Anchor[],
  offset: number,
  from: keyof Anchor,
  to: keyof Anchor,
): number {
  let low = 0;
  let high = anchors.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (anchors[middle]![from] <= offset) low = middle;
    else high = middle - 1;
  }
  const start = anchors[low]!;
  const end = anchors[low + 1];
  if (!end || end[from] === start[from]) return start[to];
  const fraction = Math.min(1, Math.max(0, (offset - start[from]) / (end[from] - start[from])));
  return start[to] + fraction * (end[to] - start[to]);
}
