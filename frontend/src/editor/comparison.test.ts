import { describe, expect, it } from "vitest";
import { buildComparison, labelText } from "./comparison";
import { UNALIGNED } from "./state";

describe("buildComparison", () => {
  it("marks the turns where any annotator differs", () => {
    const comparison = buildComparison([
      { username: "ann", assignments: [0, 0, 1, UNALIGNED] },
      { username: "bob", assignments: [0, 1, 1, 2] },
    ]);

    expect(comparison.disagreements).toEqual([false, true, false, true]);
    expect(comparison.disagreementCount).toBe(2);
    expect(comparison.annotators.map((annotator) => annotator.name)).toEqual(["ann", "bob"]);
  });

  it("finds nothing to adjudicate with one annotator or none", () => {
    expect(buildComparison([{ username: "ann", assignments: [0, 1] }]).disagreementCount).toBe(0);
    expect(buildComparison([]).disagreements).toEqual([]);
  });

  it("names labels as the editor shows them", () => {
    expect(labelText(2)).toBe("§ 3");
    expect(labelText(UNALIGNED)).toBe("unaligned");
  });
});
