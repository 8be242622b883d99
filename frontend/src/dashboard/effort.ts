import type { EffortRow } from "../api/dashboards";

/** One iteration's effort over all its annotators, as shares of the turns they had. */
export interface IterationEffort {
  /** The iteration's id. */
  iteration: number;
  number: number;
  documents: number;
  turns: number;
  /** Fractions of `turns`; null without turns. */
  changedShare: number | null;
  reviewedShare: number | null;
  /** Of the turns reviewed, those drawn for a spot check, as a fraction of `turns`. */
  spotCheckedShare: number | null;
  acceptedShare: number | null;
  /** Active editor time per 100 turns; null without turns. */
  minutesPer100Turns: number | null;
}

export function shareOf(part: number, whole: number): number | null {
  return whole > 0 ? part / whole : null;
}

export function minutesPer100Turns(seconds: number, turns: number): number | null {
  return turns > 0 ? seconds / 60 / (turns / 100) : null;
}

/** The per-annotator rows summed by iteration, in iteration order. */
export function effortByIteration(rows: readonly EffortRow[]): IterationEffort[] {
  const sums = new Map<
    number,
    {
      iteration: number;
      documents: number;
      turns: number;
      changed: number;
      reviewed: number;
      spotChecked: number;
      accepted: number;
      seconds: number;
    }
  >();
  for (const row of rows) {
    const sum = sums.get(row.number) ?? {
      iteration: row.iteration,
      documents: 0,
      turns: 0,
      changed: 0,
      reviewed: 0,
      spotChecked: 0,
      accepted: 0,
      seconds: 0,
    };
    sum.documents += row.document_count;
    sum.turns += row.turns;
    sum.changed += row.turns_changed;
    sum.reviewed += row.turns_reviewed;
    sum.spotChecked += row.turns_spot_checked;
    sum.accepted += row.turns_accepted_without_review;
    sum.seconds += row.seconds_spent;
    sums.set(row.number, sum);
  }
  return [...sums.entries()]
    .sort(([a], [b]) => a - b)
    .map(([number, sum]) => ({
      iteration: sum.iteration,
      number,
      documents: sum.documents,
      turns: sum.turns,
      changedShare: shareOf(sum.changed, sum.turns),
      reviewedShare: shareOf(sum.reviewed, sum.turns),
      spotCheckedShare: shareOf(sum.spotChecked, sum.turns),
      acceptedShare: shareOf(sum.accepted, sum.turns),
      minutesPer100Turns: minutesPer100Turns(sum.seconds, sum.turns),
    }));
}

export function percentOf(share: number | null): string {
  return share === null ? "—" : `${(share * 100).toFixed(1)} %`;
}

export function minutes(value: number | null): string {
  return value === null ? "—" : `${value.toFixed(1)} min`;
}

/** "Iteration 3: 14.0 % of turns changed, 6.1 min per 100 turns, against 61.0 % and 19.0 min
 * in iteration 1": the latest iteration against the first, whether bootstrapping pays. */
export function effortTrend(iterations: readonly IterationEffort[]): string | null {
  const first = iterations[0];
  const latest = iterations[iterations.length - 1];
  if (!first || !latest || first === latest) return null;
  return (
    `Iteration ${latest.number}: ${percentOf(latest.changedShare)} of turns changed, ` +
    `${minutes(latest.minutesPer100Turns)} per 100 turns, against ` +
    `${percentOf(first.changedShare)} and ${minutes(first.minutesPer100Turns)} in iteration ${first.number}.`
  );
}
