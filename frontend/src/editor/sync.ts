/**
 * What autosave sends and how the annotator's work is kept when someone else saved first.
 * Pure, so the merge that decides whether work survives a conflict is tested on its own.
 */
import { firstOrderBreak } from "./state";

/** Consecutive turns given the same value: the unit the API's bulk update takes. */
export interface AssignmentRun {
  first: number;
  last: number;
  segment: number;
}

export function sameAssignments(left: readonly number[], right: readonly number[]): boolean {
  return left.length === right.length && left.every((value, index) => value === right[index]);
}

export function changedTurns(base: readonly number[], current: readonly number[]): number[] {
  const turns: number[] = [];
  current.forEach((value, turn) => {
    if (value !== base[turn]) turns.push(turn);
  });
  return turns;
}

/** The edits that turn `base` into `current`, as few runs as the values allow. */
export function diffRuns(base: readonly number[], current: readonly number[]): AssignmentRun[] {
  const runs: AssignmentRun[] = [];
  for (const turn of changedTurns(base, current)) {
    const segment = current[turn]!;
    const previous = runs[runs.length - 1];
    if (previous && previous.last === turn - 1 && previous.segment === segment) {
      previous.last = turn;
    } else {
      runs.push({ first: turn, last: turn, segment });
    }
  }
  return runs;
}

export interface Rebased {
  assignments: number[];
  /** Turns where both sides changed the same turn differently; the annotator's value won. */
  overridden: number[];
  /** The merge broke the report order, so the annotator's whole version was kept instead. */
  keptWholeVersion: boolean;
}

/**
 * Re-applies the annotator's unsaved edits (`mine` against `base`) on top of the server's
 * latest version (`theirs`), so that both people's work survives. If the two sets of edits
 * do not fit together in report order, the annotator's whole version wins: nothing of theirs
 * is silently merged into something out of order, and the other version stays on the server's
 * history for the annotator to compare.
 */
export function rebase(
  base: readonly number[],
  mine: readonly number[],
  theirs: readonly number[],
): Rebased {
  const merged = theirs.slice();
  const overridden: number[] = [];
  for (const turn of changedTurns(base, mine)) {
    if (theirs[turn] !== base[turn] && theirs[turn] !== mine[turn]) overridden.push(turn);
    merged[turn] = mine[turn]!;
  }
  if (isOrdered(merged) || !isOrdered(mine)) {
    return { assignments: merged, overridden, keptWholeVersion: false };
  }
  return { assignments: mine.slice(), overridden, keptWholeVersion: true };
}

/** Whether the aligned turns go through the report in order. */
export function isOrdered(assignments: readonly number[]): boolean {
  return firstOrderBreak(assignments) === null;
}
