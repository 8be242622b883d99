import { describe, expect, it } from "vitest";
import type { EditorModel } from "./model";
import { normaliseQuery, searchHits } from "./FindBar";

const model = {
  turns: [
    { index: 0, searchText: "bonjour à tous" },
    { index: 1, searchText: "merci" },
  ],
  segments: [{ index: 0, searchText: "anne bonjour." }],
  preAlignment: [0, 0],
} as unknown as EditorModel;

describe("search", () => {
  it("ignores case, outer spaces and one-letter queries", () => {
    expect(normaliseQuery("  Bonjour   À ")).toBe("bonjour à");
    expect(normaliseQuery("a")).toBe("");
  });

  it("finds turns first, then segments", () => {
    expect(searchHits(model, "bonjour")).toEqual([
      { pane: "turns", index: 0 },
      { pane: "segments", index: 0 },
    ]);
    expect(searchHits(model, "")).toEqual([]);
  });
});
