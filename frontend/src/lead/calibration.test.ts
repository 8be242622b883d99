import { describe, expect, it } from "vitest";
import { calibrationNote } from "./calibration";

describe("calibrationNote", () => {
  it("says how each pre-alignment was calibrated and cautions nothing for the project's own", () => {
    expect(calibrationNote({ learned: 3, prior: 0, none: 0 })).toEqual({
      said: "Confidences: 3 pre-alignments calibrated on this project’s gold.",
      cautions: [],
    });
  });

  it("cautions once per kind that was not fitted on the project's gold", () => {
    const note = calibrationNote({ learned: 1, prior: 2, none: 1 });
    expect(note.said).toBe(
      "Confidences: 1 pre-alignment calibrated on this project’s gold, 2 pre-alignments by the " +
        "shipped calibration (fitted on other documents) and 1 pre-alignment with no " +
        "calibration known.",
    );
    expect(note.cautions).toHaveLength(2);
    expect(note.cautions[0]).toMatch(/^A calibration fitted on other documents is often/);
    expect(note.cautions[1]).toMatch(/^A confidence with no calibration is a score/);
  });

  it("says nothing of a batch without confidences", () => {
    expect(calibrationNote({ learned: 0, prior: 0, none: 0 })).toEqual({ said: "", cautions: [] });
  });
});
