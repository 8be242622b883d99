import { describe, expect, it } from "vitest";
import { initialReviewed, nextToReview, reviewCounts, withReviewed } from "./review";

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
    const counts = reviewCounts([1, 3], [true, false, false, false, false], (turn) => turn === 3);
    expect(counts).toEqual({ shownReviewed: 1, shown: 2, unreviewed: 3 });
  });
});
