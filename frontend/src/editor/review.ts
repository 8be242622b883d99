/**
 * The review mode's bookkeeping: which turns it shows, which comes next among them, and how
 * many are reviewed. A turn counts as reviewed once it was visited (had the focus), confirmed
 * or changed, as the server counts it.
 */

/**
 * The turns to review, ascending: those the server shows (confidence under the threshold) and
 * those next to a turn the annotator changed. Wrong labels come in runs (a misplaced boundary
 * puts several turns in a row in the wrong segment), so a change says its neighbours may be
 * wrong too, however confident the pre-alignment is of them; changing one of those shows the
 * next, to the end of the run. The server's estimate of what the review leaves counts on it
 * (docs/review.md).
 */
export function turnsToReview(
  shown: readonly number[],
  changed: (turn: number) => boolean,
  turnCount: number,
): number[] {
  const wanted = new Array<boolean>(turnCount).fill(false);
  shown.forEach((turn) => (wanted[turn] = true));
  for (let turn = 0; turn < turnCount; turn += 1) {
    if (!changed(turn)) continue;
    if (turn > 0) wanted[turn - 1] = true;
    if (turn + 1 < turnCount) wanted[turn + 1] = true;
  }
  const turns: number[] = [];
  wanted.forEach((on, turn) => on && turns.push(turn));
  return turns;
}

/** The first turn to review after `from` (`direction` 1) or before it (-1), or null; `turns`
 * ascending. */
export function nextToReview(
  turns: readonly number[],
  from: number,
  direction: 1 | -1,
): number | null {
  if (direction === 1) return turns.find((turn) => turn > from) ?? null;
  for (let index = turns.length - 1; index >= 0; index -= 1) {
    if (turns[index]! < from) return turns[index]!;
  }
  return null;
}

/** Per turn, reviewed as stored (rows saved before turns were counted store none). */
export function initialReviewed(stored: readonly boolean[], turnCount: number): boolean[] {
  return stored.length === turnCount ? [...stored] : new Array<boolean>(turnCount).fill(false);
}

/** `reviewed` with `turns` set; the same array when nothing changes, so React skips a render. */
export function withReviewed(reviewed: readonly boolean[], turns: readonly number[]): boolean[] {
  if (turns.every((turn) => reviewed[turn])) return reviewed as boolean[];
  const next = [...reviewed];
  turns.forEach((turn) => (next[turn] = true));
  return next;
}

export interface ReviewCounts {
  /** Turns the mode shows that are reviewed, and how many it shows. */
  shownReviewed: number;
  shown: number;
  /** Of those shown, how many only because they are next to a changed turn. */
  nextToChanges: number;
  /** Turns neither reviewed nor changed: what "accept the rest" accepts without review. */
  unreviewed: number;
}

/** `shownByServer`: the turns under the threshold; `toReview`: those and the turns next to
 * changes (`turnsToReview`). */
export function reviewCounts(
  shownByServer: readonly number[],
  toReview: readonly number[],
  reviewed: readonly boolean[],
  changed: (turn: number) => boolean,
): ReviewCounts {
  const done = (turn: number) => reviewed[turn] === true || changed(turn);
  let unreviewed = 0;
  for (let turn = 0; turn < reviewed.length; turn += 1) if (!done(turn)) unreviewed += 1;
  return {
    shownReviewed: toReview.filter(done).length,
    shown: toReview.length,
    nextToChanges: toReview.length - shownByServer.length,
    unreviewed,
  };
}

/** What "accept the rest" does next, where the iteration may ask for a spot check: the turns
 * left unread after review, a share of which the server draws for the annotator to read before
 * the rest may be accepted (docs/review.md). */
export type AcceptRestStep =
  | { kind: "accept" }
  | { kind: "reviewFirst"; left: number }
  | { kind: "draw" }
  | { kind: "readSpotCheck"; unread: number[] };

/** `spotCheck`: the iteration's share, or null for no spot check; `drawn`: the turns drawn so
 * far (none before the draw); `counts`: `reviewCounts` with the drawn turns among those shown. */
export function acceptRestStep(
  spotCheck: number | null,
  drawn: readonly number[],
  counts: ReviewCounts,
  reviewed: readonly boolean[],
  changed: (turn: number) => boolean,
): AcceptRestStep {
  if (spotCheck === null || counts.unreviewed === 0) return { kind: "accept" };
  if (drawn.length === 0) {
    const left = counts.shown - counts.shownReviewed;
    return left > 0 ? { kind: "reviewFirst", left } : { kind: "draw" };
  }
  const unread = unreadDrawn(drawn, reviewed, changed);
  return unread.length > 0 ? { kind: "readSpotCheck", unread } : { kind: "accept" };
}

/** The turns drawn for the spot check that are neither reviewed nor changed. */
export function unreadDrawn(
  drawn: readonly number[],
  reviewed: readonly boolean[],
  changed: (turn: number) => boolean,
): number[] {
  return drawn.filter((turn) => !reviewed[turn] && !changed(turn));
}
