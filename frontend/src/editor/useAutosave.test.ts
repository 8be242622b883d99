import { describe, expect, it } from "vitest";
import { UNALIGNED } from "./state";
import { toOperation } from "./useAutosave";

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
