import { describe, expect, it } from "vitest";
import { UNALIGNED as U } from "./state";
import { changedTurns, diffRuns, isOrdered, rebase, sameAssignments } from "./sync";

describe("diffRuns", () => {
  it("groups consecutive turns given the same value", () => {
    expect(diffRuns([0, 0, 1, 1, 2, 2], [0, 1, 1, U, U, 3])).toEqual([
      { first: 1, last: 1, segment: 1 },
      { first: 3, last: 4, segment: U },
      { first: 5, last: 5, segment: 3 },
    ]);
  });

  it("splits runs at unchanged turns and at new values", () => {
    expect(diffRuns([0, 0, 0, 0], [1, 0, 1, 2])).toEqual([
      { first: 0, last: 0, segment: 1 },
      { first: 2, last: 2, segment: 1 },
      { first: 3, last: 3, segment: 2 },
    ]);
  });

  it("is empty when nothing changed", () => {
    expect(diffRuns([0, 1], [0, 1])).toEqual([]);
    expect(sameAssignments([0, 1], [0, 1])).toBe(true);
    expect(sameAssignments([0, 1], [0, 1, 1])).toBe(false);
  });
});

describe("rebase", () => {
  const base = [0, 0, 1, 1, 2, 2, 3, 3];

  it("keeps both people's edits when they touched different turns", () => {
    const mine = [0, 0, 0, 1, 2, 2, 3, 3];
    const theirs = [0, 0, 1, 1, 2, 2, 2, 3];
    const result = rebase(base, mine, theirs);
    expect(result.assignments).toEqual([0, 0, 0, 1, 2, 2, 2, 3]);
    expect(result.overridden).toEqual([]);
    expect(result.keptWholeVersion).toBe(false);
  });

  it("lets the annotator's value win on a turn both changed, and says which", () => {
    const result = rebase(base, [0, 0, U, 1, 2, 2, 3, 3], [0, 0, 0, 1, 2, 2, 3, 3]);
    expect(result.assignments[2]).toBe(U);
    expect(result.overridden).toEqual([2]);
  });

  it("does not count a turn both changed the same way as overridden", () => {
    expect(rebase(base, [0, 0, 0, 1, 2, 2, 3, 3], [0, 0, 0, 1, 2, 2, 3, 3]).overridden).toEqual([]);
  });

  it("keeps the annotator's whole version when the merge would break the order", () => {
    const mine = [0, 0, 1, 1, 1, 1, 3, 3];
    const theirs = [0, 0, 1, 2, 2, 2, 3, 3];
    const result = rebase(base, mine, theirs);
    expect(changedTurns(base, mine)).toEqual([4, 5]);
    expect(result.keptWholeVersion).toBe(true);
    expect(result.assignments).toEqual(mine);
  });

  it("merges anyway when the annotator's own version was already out of order", () => {
    const disordered = [0, 2, 1, 1];
    const result = rebase(disordered, [0, 2, 1, U], [1, 2, 1, 1]);
    expect(result.assignments).toEqual([1, 2, 1, U]);
    expect(result.keptWholeVersion).toBe(false);
  });
});

describe("isOrdered", () => {
  it("ignores unaligned turns", () => {
    expect(isOrdered([0, U, 0, 1, U, 3])).toBe(true);
    expect(isOrdered([1, U, 0])).toBe(false);
    expect(isOrdered([])).toBe(true);
  });
});
