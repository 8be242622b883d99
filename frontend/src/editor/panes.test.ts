import { describe, expect, it } from "vitest";
import { turnsBySegment } from "./panes";
import { UNALIGNED as U } from "./state";

describe("turnsBySegment", () => {
  it("gives each segment the span and number of its turns", () => {
    expect(turnsBySegment([0, 0, U, 2, U, 2], 4)).toEqual([
      { first: 0, last: 1, count: 2 },
      null,
      { first: 3, last: 5, count: 2 },
      null,
    ]);
  });
});
