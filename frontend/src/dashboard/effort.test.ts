import { describe, expect, it } from "vitest";
import type { EffortRow } from "../api/dashboards";
import { effortByIteration, effortTrend } from "./effort";

function row(
  number: number,
  turns: number,
  changed: number,
  reviewed: number,
  seconds: number,
  accepted = 0,
  spotChecked = 0,
) {
  return {
    iteration: number * 10,
    number,
    annotator: turns,
    username: `annotator ${turns}`,
    documents: [],
    document_count: 1,
    submitted_count: 1,
    turns,
    turns_changed: changed,
    turns_reviewed: reviewed,
    turns_spot_checked: spotChecked,
    turns_accepted_without_review: accepted,
    seconds_spent: seconds,
    turns_changed_per_document: changed,
    seconds_per_document: seconds,
  } satisfies EffortRow;
}

describe("effort per iteration", () => {
  it("sums the annotators' turns, changes, reviews and time, as shares and per 100 turns", () => {
    const figures = effortByIteration([
      row(3, 100, 10, 30, 300, 70, 4),
      row(1, 300, 183, 300, 3420),
      row(3, 100, 18, 50, 432, 30, 2),
    ]);

    expect(figures.map((figure) => [figure.iteration, figure.number])).toEqual([
      [10, 1],
      [30, 3],
    ]);
    expect(figures.map((figure) => figure.acceptedShare)).toEqual([0, 0.5]);
    expect(figures.map((figure) => figure.spotCheckedShare)).toEqual([0, 0.03]);
    expect(figures[0]).toMatchObject({ turns: 300, changedShare: 0.61, reviewedShare: 1 });
    expect(figures[0]!.minutesPer100Turns).toBeCloseTo(19);
    expect(figures[1]).toMatchObject({ documents: 2, changedShare: 0.14, reviewedShare: 0.4 });
    expect(figures[1]!.minutesPer100Turns).toBeCloseTo(6.1);
  });

  it("says the latest iteration against the first", () => {
    const figures = effortByIteration([row(1, 300, 183, 300, 3420), row(3, 200, 28, 80, 732)]);

    expect(effortTrend(figures)).toBe(
      "Iteration 3: 14.0 % of turns changed, 6.1 min per 100 turns, against 61.0 % and 19.0 min in iteration 1.",
    );
    expect(effortTrend(figures.slice(0, 1))).toBeNull();
  });

  it("has no shares without turns", () => {
    expect(effortByIteration([row(1, 0, 0, 0, 0)])[0]).toMatchObject({
      changedShare: null,
      minutesPer100Turns: null,
    });
  });
});
