import { describe, expect, it } from "vitest";
import { learnedSummary, learnedVerdict } from "./learned";

describe("learnedSummary", () => {
  it("names the corrections' threshold and the score with second opinions", () => {
    expect(
      learnedSummary({
        corrections_kept: true,
        threshold: 0.6,
        calibration_score: "logistic",
        second_opinions_kept: true,
        held_out: {
          path_turn_hits: 3444,
          "learned_turn_hits_at_0.6": 3509,
          heuristic_auroc: 0.7476,
          learned_auroc: 0.8595,
          second_opinions_auroc: 0.869,
        },
      }),
    ).toBe(
      "Corrections learned from the gold apply where their probability reaches 60%: on held-out " +
        "gold they got 3,509 turns right against the path's 3,444. The confidence is a probability " +
        "calibrated on the gold, from a model that also reads the other aligners' labels (AUROC " +
        "on held-out gold 0.87, the engine's own 0.75).",
    );
  });

  it("says when the path's labels stand and the engine's confidence is what is calibrated", () => {
    expect(
      learnedSummary({
        corrections_kept: false,
        threshold: 1,
        calibration_score: "engine",
        held_out: { path_turn_hits: 40, heuristic_auroc: null, learned_auroc: null },
      }),
    ).toBe(
      "No learned corrections: none beat the tuned path on held-out gold, so pre-alignments " +
        "keep its labels. The confidence is a probability calibrated on the gold, from the " +
        "engine's own confidence.",
    );
  });

  it("reads a run from before second opinions as the logistic score it kept", () => {
    expect(
      learnedSummary({
        corrections_kept: false,
        threshold: 1,
        calibration_score: "logistic",
        held_out: { heuristic_auroc: 0.7, learned_auroc: 0.8 },
      }),
    ).toContain(
      "from a model of the turn's evidence (AUROC on held-out gold 0.80, the engine's own 0.70).",
    );
  });
});

describe("learnedVerdict", () => {
  it("says why nothing was learned and what pre-alignments keep", () => {
    expect(
      learnedVerdict({
        learned: null,
        learning_refusal: "too_few_documents",
        learning_note:
          "The gold holds 3 documents, fewer than the 5 a calibrated confidence and learned " +
          "corrections are fitted from. Pre-alignments keep the calibration of 'run 1', in use.",
      }),
    ).toBe(
      "Nothing learned from this gold. The gold holds 3 documents, fewer than the 5 a " +
        "calibrated confidence and learned corrections are fitted from. Pre-alignments keep the " +
        "calibration of 'run 1', in use.",
    );
  });

  it("sums up a decision that was kept", () => {
    const learned = {
      corrections_kept: false,
      threshold: 1,
      calibration_score: "engine" as const,
      held_out: { path_turn_hits: 40, heuristic_auroc: 0.81 },
    };
    expect(learnedVerdict({ learned, learning_refusal: "", learning_note: "" })).toBe(
      learnedSummary(learned),
    );
  });
});
