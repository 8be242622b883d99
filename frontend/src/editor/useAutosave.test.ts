import { describe, expect, it } from "vitest";
import { UNALIGNED } from "./state";
import { ApiError } from "../api/client";
import { describeSaveError, toOperation } from "./useAutosave";

describe("toOperation", () => {
  it("sends runs to a segment as assign and unaligned runs as unalign", () => {
    expect(toOperation({ first: 2, last: 4, segment: 7 })).toEqual({
      action: "assign",
      first_turn: 2,
      last_turn: 4,
      segment: 7,
    });
    expect(toOperation({ first: 5, last: 5, segment: UNALIGNED })).toEqual({
      action: "unalign",
      first_turn: 5,
      last_turn: 5,
    });
  });
});

describe("describeSaveError", () => {
  it("tells a signed-out annotator that nothing is lost", () => {
    expect(describeSaveError(new ApiError(403, "Forbidden", null))).toMatch(/signed out.*kept/);
    expect(describeSaveError(new ApiError(400, "Turn 3 would break the order.", null))).toBe(
      "Turn 3 would break the order.",
    );
  });
});
