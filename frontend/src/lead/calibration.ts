import type { Calibrations } from "./api";
import { counted, listed } from "../text/plural";

/**
 * What the lead should know of the confidences an estimated residual error is read from: a
 * calibration fitted on the project's own gold has held to about a point once a project has
 * some; the shipped one, fitted on other documents, is often a point or more off on a new
 * batch; without one, a confidence is a score (docs/review.md).
 */
export function calibrationNote(calibrations: Calibrations): { said: string; cautions: string[] } {
  const kinds = [
    [calibrations.learned, "calibrated on this project’s gold"],
    [calibrations.prior, "by the shipped calibration (fitted on other documents)"],
    [calibrations.none, "with no calibration known"],
  ] as const;
  const parts = kinds
    .filter(([count]) => count > 0)
    .map(([count, how]) => `${counted(count, "pre-alignment")} ${how}`);
  const cautions: string[] = [];
  if (calibrations.prior > 0) {
    cautions.push(
      "A calibration fitted on other documents is often a point or more off on a new batch, " +
        "either way: once documents are submitted, the estimate after review also reads what " +
        "their review found. A tuning run on five gold documents or more proposes a " +
        "calibration fitted on this project’s own.",
    );
  }
  if (calibrations.none > 0) {
    cautions.push(
      "A confidence with no calibration is a score, not a probability, so its estimate is a " +
        "rough guide; the engine’s own confidence errs on the safe side, expecting more wrong " +
        "labels than are left.",
    );
  }
  return { said: parts.length ? `Confidences: ${listed(parts)}.` : "", cautions };
}
