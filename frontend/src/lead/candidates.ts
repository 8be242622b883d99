/** What a lead decides a tuning run's candidates by: how a setting differs from the
 * parameters in use, and which candidates tie (the same figures on the same gold). */

type Params = Record<string, unknown>;

/** Every leaf setting of alignment parameters by its dotted name: `scoring.method`. */
export function flatParams(params: Params, prefix = ""): Map<string, string> {
  const flat = new Map<string, string>();
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      for (const [name, leaf] of flatParams(value as Params, `${prefix}${key}.`)) {
        flat.set(name, leaf);
      }
    } else {
      flat.set(`${prefix}${key}`, Array.isArray(value) ? value.join(",") : String(value));
    }
  }
  return flat;
}

export interface Difference {
  name: string;
  value: string;
  /** The incumbent's value; null when the incumbent has no such setting (another aligner). */
  inUse: string | null;
}

/** The settings whose value differs from the incumbent's, in the candidate's order. A
 * setting the incumbent lacks (the candidate runs another aligner, whose `aligner` differs)
 * is named only when the grid varied it: the rest are that aligner's defaults, the same in
 * every candidate, and would bury what tells the candidates apart. */
export function differences(
  params: Params,
  incumbent: Params | null,
  varied: readonly string[] = [],
): Difference[] {
  const theirs = incumbent ? flatParams(incumbent) : new Map<string, string>();
  return [...flatParams(params)]
    .filter(([name, value]) =>
      theirs.has(name) ? theirs.get(name) !== value : name === "aligner" || varied.includes(name),
    )
    .map(([name, value]) => ({ name, value, inUse: theirs.get(name) ?? null }));
}

/** "gapped.match_offset 0.45 (in use: 0.25)". */
export function differenceText(difference: Difference): string {
  const inUse = difference.inUse === null ? "" : ` (in use: ${difference.inUse})`;
  return `${difference.name} ${difference.value}${inUse}`;
}

export interface Scored {
  segment_accuracy: number | null;
  word_accuracy: number | null;
  window_diff: number | null;
  documents_evaluated: number;
}

/** Consecutive candidates with the same figures on the same number of documents, as groups:
 * a grid often holds many settings the gold cannot tell apart, which a lead reads as one. */
export function tiedGroups<T extends Scored>(candidates: readonly T[]): T[][] {
  const groups: T[][] = [];
  const key = (candidate: T) =>
    [
      candidate.segment_accuracy,
      candidate.word_accuracy,
      candidate.window_diff,
      candidate.documents_evaluated,
    ].join("|");
  for (const candidate of candidates) {
    const last = groups[groups.length - 1];
    if (last && candidate.segment_accuracy !== null && key(last[0]!) === key(candidate)) {
      last.push(candidate);
    } else {
      groups.push([candidate]);
    }
  }
  return groups;
}
