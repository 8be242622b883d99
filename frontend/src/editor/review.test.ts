import { describe, expect, it } from "vitest";
import {
  acceptRestStep,
  initialReviewed,
  nextToReview,
  reviewCounts,
  turnsToReview,
  withReviewed,
} from "./review";

describe("turnsToReview", () => {
  it("is the server's turns while nothing is changed", () => {
    expect(turnsToReview([2, 5], () => false, 8)).toEqual([2, 5]);
  });

  it("adds the turns next to each changed turn, within the document, in order", () => {
    expect(turnsToReview([5], (turn) => turn === 0 || turn === 5, 8)).toEqual([1, 4, 5, 6]);
    expect(turnsToReview([], (turn) => turn === 7, 8)).toEqual([6]);
  });

  it("follows a run: changing a shown neighbour shows the next one", () => {
    const changed = new Set([3]);
    expect(turnsToReview([3], (turn) => changed.has(turn), 10)).toEqual([2, 3, 4]);
    changed.add(4);
    expect(turnsToReview([3], (turn) => changed.has(turn), 10)).toEqual([2, 3, 4, 5]);
  });
});

describe("nextToReview", () => {
  const turns = [2, 5, 9];

  it("goes to the next turn to review after the focus, or the previous before it", () => {
    expect(nextToReview(turns, 0, 1)).toBe(2);
    expect(nextToReview(turns, 2, 1)).toBe(5);
    expect(nextToReview(turns, 6, -1)).toBe(5);
    expect(nextToReview(turns, 5, -1)).toBe(2);
  });

  it("says there is none past the last or before the first", () => {
    expect(nextToReview(turns, 9, 1)).toBeNull();
    expect(nextToReview(turns, 2, -1)).toBeNull();
    expect(nextToReview([], 0, 1)).toBeNull();
  });
});

describe("reviewed turns", () => {
  it("start from the stored flags, or none when a row stored none", () => {
    expect(initialReviewed([true, false], 2)).toEqual([true, false]);
    expect(initialReviewed([], 3)).toEqual([false, false, false]);
  });

  it("are set without a new array when nothing changes", () => {
    const reviewed = [true, false, false];
    expect(withReviewed(reviewed, [0])).toBe(reviewed);
    expect(withReviewed(reviewed, [2])).toEqual([true, false, true]);
  });

  it("count a changed turn as reviewed, and the rest as what accepting would accept", () => {
    const changed = (turn: number) => turn === 3;
    const toReview = turnsToReview([1, 3], changed, 5);
    const counts = reviewCounts([1, 3], toReview, [true, false, false, false, false], changed);
    expect(counts).toEqual({ shownReviewed: 1, shown: 4, nextToChanges: 2, unreviewed: 3 });
  });
});

describe("acceptRestStep", () => {
  const nothingChanged = () => false;
  const reviewedOnly = (turns: number[]) => {
    const reviewed = new Array<boolean>(10).fill(false);
    turns.forEach((turn) => (reviewed[turn] = true));
    return reviewed;
  };
  const counts = (shown: number[], reviewed: boolean[]) =>
    reviewCounts(shown, shown, reviewed, nothingChanged);

  it("accepts at once without a spot check, or when nothing is left unread", () => {
    const reviewed = reviewedOnly([2]);
    expect(acceptRestStep(null, [], counts([2, 5], reviewed), reviewed, nothingChanged)).toEqual({
      kind: "accept",
    });
    const all = new Array<boolean>(10).fill(true);
    expect(acceptRestStep(0.05, [], counts([2, 5], all), all, nothingChanged)).toEqual({
      kind: "accept",
    });
  });

  it("asks for the shown turns first, then for the draw", () => {
    const partly = reviewedOnly([2]);
    expect(acceptRestStep(0.05, [], counts([2, 5], partly), partly, nothingChanged)).toEqual({
      kind: "reviewFirst",
      left: 1,
    });
    const done = reviewedOnly([2, 5]);
    expect(acceptRestStep(0.05, [], counts([2, 5], done), done, nothingChanged)).toEqual({
      kind: "draw",
    });
  });

  it("waits for every drawn turn, read or changed, before accepting", () => {
    const reviewed = reviewedOnly([2, 5, 7]);
    const shown = [2, 5, 7, 8];
    expect(acceptRestStep(0.05, [7, 8], counts(shown, reviewed), reviewed, nothingChanged)).toEqual(
      { kind: "readSpotCheck", unread: [8] },
    );
    const changed = (turn: number) => turn === 8;
    expect(acceptRestStep(0.05, [7, 8], counts(shown, reviewed), reviewed, changed)).toEqual({
      kind: "accept",
    });
  });
});
