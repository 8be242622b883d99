import { describe, expect, it } from "vitest";
import { spotCheckPrecisionNote } from "./spotCheckPrecision";

const precision = { share: 0.05, turns_drawn: 75, model_error_sd: 0.01, combined_error_sd: 0.008 };

describe("spotCheckPrecisionNote", () => {
  it("says what a suggested check would draw and how far the estimate may miss with it", () => {
    expect(spotCheckPrecisionNote(precision, 2116, false)).toBe(
      "A check of 5.0 % would draw about 75 turns (3.5 % of the batch). Where the estimate " +
        "without it misses the residual error by about 1.0 point, as a calibration fitted on " +
        "other documents does, the estimate with it misses by about 0.8 points.",
    );
  });

  it("speaks of the check in force once one is set", () => {
    expect(spotCheckPrecisionNote({ ...precision, share: 0.1 }, 2116, true)).toMatch(
      /^At the threshold in force, this check draws about 75 turns \(3\.5 % of the batch\)\./,
    );
  });

  it("says when a check is too small to change the estimate's precision", () => {
    expect(spotCheckPrecisionNote({ ...precision, combined_error_sd: 0.0098 }, 60, true)).toMatch(
      /by about 1\.0 point, as a calibration fitted on other documents does, so few turns leave that about the same\.$/,
    );
  });

  it("says when nothing is left to draw", () => {
    expect(spotCheckPrecisionNote({ ...precision, turns_drawn: 0 }, 2116, true)).toBe(
      "At the threshold in force no turn is left unread, so a spot check has nothing to draw.",
    );
  });
});
