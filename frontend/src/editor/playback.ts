/**
 * Listening in the editor, the parts that are plain functions of times: what the selection
 * plays, which turn and which word are under the playhead.
 */

/** A turn's place in the recording, in seconds; null where the transcript has no times. */
export interface Timed {
  start: number | null;
  end: number | null;
}

export interface TimedWord {
  text: string;
  start: number;
  end: number;
}

export interface Span {
  start: number;
  end: number;
}

/** The payload's `turn_words` (per turn, `[text, start, end]` triples) as words. */
export function timedWords(turnWords: readonly (readonly (string | number)[])[][]): TimedWord[][] {
  return turnWords.map((words) =>
    words.map(([text, start, end]) => ({
      text: String(text),
      start: Number(start),
      end: Number(end),
    })),
  );
}

/**
 * What playing the selected turns `first`..`last` plays: from the first timed turn's start to
 * the last timed turn's end; null when none of them has times (the transcript gave none).
 */
export function selectionSpan(turns: readonly Timed[], first: number, last: number): Span | null {
  let start: number | null = null;
  let end: number | null = null;
  for (let index = first; index <= last; index += 1) {
    const turn = turns[index];
    if (!turn || turn.start === null) continue;
    start ??= turn.start;
    end = Math.max(end ?? turn.start, turn.end ?? turn.start);
  }
  return start === null || end === null || end <= start ? null : { start, end };
}

/**
 * The turn being said at `time`: the last one that started at or before it and has not yet
 * ended (turns are in recording order); null in a silence between turns.
 */
export function turnAt(turns: readonly Timed[], time: number): number | null {
  let low = 0;
  let high = turns.length - 1;
  let found = -1;
  // Binary search on starts, skipping untimed turns by walking back from the midpoint.
  while (low <= high) {
    const middle = (low + high) >> 1;
    let probe = middle;
    while (probe >= low && turns[probe]!.start === null) probe -= 1;
    if (probe < low) {
      low = middle + 1;
      continue;
    }
    if (turns[probe]!.start! <= time) {
      found = probe;
      low = middle + 1;
    } else {
      high = probe - 1;
    }
  }
  if (found < 0) return null;
  const turn = turns[found]!;
  return time < (turn.end ?? turn.start!) ? found : null;
}

/** The word being said at `time` among a turn's words; null between words. */
export function wordAt(words: readonly TimedWord[], time: number): number | null {
  for (let index = words.length - 1; index >= 0; index -= 1) {
    const word = words[index]!;
    if (word.start <= time) return time < word.end ? index : null;
  }
  return null;
}
