import { describe, expect, it } from "vitest";
import { initialReviewed, nextToReview, reviewCounts, turnsToReview, withReviewed } from "./review";

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
