import { describe, expect, it } from "vitest";
import { parseGrid } from "./CloseIterationForm";

describe("parseGrid", () => {
  it("takes nothing as the default grid and an object of lists as a grid", () => {
    expect(parseGrid("  ")).toEqual({});
    expect(parseGrid('{"turns.match_offset": [0.3, 0.4]}')).toEqual({
      grid: { "turns.match_offset": [0.3, 0.4] },
    });
  });

  it("names what is wrong before anything is sent", () => {
    expect(parseGrid("{match_offset").error).toBe("The grid is not valid JSON.");
    expect(parseGrid("[1]").error).toMatch(/^The grid is an object/);
    expect(parseGrid('{"gap_open": 3}').error).toBe("The grid's gap_open needs a list of values.");
    expect(parseGrid('{"power": [{"x": 1}]}').error).toBe(
      "The grid's power takes numbers, text, true/false or null.",
    );
  });
});
