/**
 * Adjudication's view of several annotators' labels: who said what for each turn, and the
 * turns where they disagree. Pure, so the disagreement rule is tested on its own.
 */
import { UNALIGNED } from "./state";

export interface ComparedAnnotator {
  name: string;
  labels: readonly number[];
}

export interface Comparison {
  annotators: readonly ComparedAnnotator[];
  /** Per turn: the annotators did not all give it the same label. */
  disagreements: readonly boolean[];
  disagreementCount: number;
}

export function buildComparison(
  annotations: readonly { username: string; assignments: readonly number[] }[],
): Comparison {
  const annotators = annotations.map((annotation) => ({
    name: annotation.username,
    labels: annotation.assignments,
  }));
  const turns = annotators[0]?.labels.length ?? 0;
  const disagreements = Array.from({ length: turns }, (_, turn) =>
    annotators.some((annotator) => annotator.labels[turn] !== annotators[0]!.labels[turn]),
  );
  return {
    annotators,
    disagreements,
    disagreementCount: disagreements.filter(Boolean).length,
  };
}

export function labelText(label: number | undefined): string {
  return label === undefined || label === UNALIGNED ? "unaligned" : `§ ${label + 1}`;
}
