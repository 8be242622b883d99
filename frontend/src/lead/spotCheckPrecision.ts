import type { SpotCheckPrecision } from "./api";
import { counted, noun } from "../text/plural";

/** A share of turns in points, "0.8 points", "1.0 point". */
export function points(sd: number): string {
  const value = (sd * 100).toFixed(1);
  return `${value} ${noun(Number(value), "point")}`;
}

/**
 * What a spot check of the iteration's share (or of the suggested one, while none is set)
 * buys at the threshold in force: the turns it draws, which annotators read on top of the
 * review, and how far the residual error's estimate may then miss, against the model's own
 * spread without it (docs/review.md, how close it can come).
 */
export function spotCheckPrecisionNote(
  precision: SpotCheckPrecision,
  turns: number,
  isSet: boolean,
): string {
  const percent = `${(precision.share * 100).toFixed(1)} %`;
  if (precision.turns_drawn === 0) {
    return "At the threshold in force no turn is left unread, so a spot check has nothing to draw.";
  }
  const opening = isSet
    ? "At the threshold in force, this check draws"
    : `A check of ${percent} would draw`;
  const ofBatch = `${((precision.turns_drawn / turns) * 100).toFixed(1)} % of the batch`;
  const without = points(precision.model_error_sd);
  const withIt = points(precision.combined_error_sd);
  return (
    `${opening} about ${counted(precision.turns_drawn, "turn")} (${ofBatch}). ` +
    `Where the estimate without it misses the residual error by about ${without}, as a ` +
    `calibration fitted on other documents does, ` +
    (withIt === without
      ? "so few turns leave that about the same."
      : `the estimate with it misses by about ${withIt}.`)
  );
}
