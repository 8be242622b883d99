import { describe, expect, it } from "vitest";
import { alignmentOf, describeParams, duration, percent, scoringOf, windowOf } from "./format";

describe("format", () => {
  it("prints percentages with one decimal and a dash for nothing", () => {
    expect(percent(76.634)).toBe("76.6%");
    expect(percent(null)).toBe("—");
  });

  it("prints durations in the largest unit that reads well", () => {
    expect(duration(42)).toBe("42 s");
    expect(duration(600)).toBe("10 min");
    expect(duration(3900)).toBe("1 h 5 min");
  });

  it("flattens nested parameters into one line", () => {
    expect(
      describeParams({ aligner: "dp", scoring: { method: "tfidf", window: [1, 2] }, gap: null }),
    ).toBe("aligner=dp scoring.method=tfidf scoring.window=1,2 gap=null");
  });
});

describe("Table 1 columns", () => {
  const params = {
    aligner: "gapped",
    scoring: { method: "embedding", window_size: 1, window_overlap: 0, idf_weighting: true },
    match_offset: 0.35,
    gap_open: 3,
  };

  it("name the window, the scoring and the aligner's settings", () => {
    expect(windowOf(params)).toBe("1 / 0");
    expect(scoringOf(params)).toBe("embedding, idf");
    expect(alignmentOf(params)).toBe("gapped, offset 0.35, gap 3");
    expect(alignmentOf({ ...params, aligner: "diagonal" })).toBe("diagonal");
    expect(
      alignmentOf({
        ...params,
        aligner: "turns",
        match_offset: 0.1,
        baseline_quantile: 0.9,
        unaligned_gain: 4,
        turn_gap_open: 80,
        min_words: 0,
      }),
    ).toBe("turns, offset 0.1, baseline q 0.9, unaligned gain 4, gap 80, min words 0");
  });
});
