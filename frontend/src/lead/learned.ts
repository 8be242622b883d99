import type { TuningBrief } from "./api";

export type LearnedResult = NonNullable<TuningBrief["learned"]>;

const count = (value: number | null | undefined) =>
  value === null || value === undefined ? "—" : value.toLocaleString("en-GB");

const figure = (value: number | null | undefined) =>
  value === null || value === undefined ? null : value.toFixed(2);

/** What a tuning run learned from the gold beyond its parameters, in a lead's words: whether
 * pre-alignments get corrections, and what their confidence is calibrated from, with the
 * held-out figures each choice was made on, so that a lead knows what the editor's
 * low-confidence marks and the reliability diagram stand for. */
export function learnedSummary(learned: LearnedResult): string {
  const held = learned.held_out;
  const corrected = held[`learned_turn_hits_at_${learned.threshold}`];
  const corrections = learned.corrections_kept
    ? `Corrections learned from the gold apply where their probability reaches ${Math.round(
        100 * learned.threshold,
      )}%: on held-out gold they got ${count(corrected)} turns right against the path's ${count(
        held.path_turn_hits,
      )}.`
    : "No learned corrections: none beat the tuned path on held-out gold, so pre-alignments keep its labels.";
  const engine = figure(held.heuristic_auroc);
  const engineOnly = !learned.second_opinions_kept && learned.calibration_score === "engine";
  const [source, ranking] = learned.second_opinions_kept
    ? ["a model that also reads the other aligners' labels", figure(held.second_opinions_auroc)]
    : engineOnly
      ? ["the engine's own confidence", engine]
      : ["a model of the turn's evidence", figure(held.learned_auroc)];
  const against = engineOnly || engine === null ? "" : `, the engine's own ${engine}`;
  const figures = ranking === null ? "" : ` (AUROC on held-out gold ${ranking}${against})`;
  return `${corrections} The confidence is a probability calibrated on the gold, from ${source}${figures}.`;
}

/** The iteration page's line on what the run learned, or why it learned nothing (too few gold
 * documents, or a held-out ranking below the floor) and what pre-alignments keep instead. */
export function learnedVerdict(
  tuning: Pick<TuningBrief, "learned" | "learning_refusal" | "learning_note">,
): string {
  if (tuning.learning_refusal) return `Nothing learned from this gold. ${tuning.learning_note}`;
  return tuning.learned ? learnedSummary(tuning.learned) : "";
}
