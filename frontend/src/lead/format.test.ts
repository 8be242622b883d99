import { describe, expect, it } from "vitest";
import type { Aligner, AlignerSetting } from "./api";
import { ApiError } from "../api/client";
import {
  alignmentOf,
  audioProblem,
  fileSize,
  describeParams,
  scoringOf,
  variedOf,
  windowOf,
} from "./format";

describe("parameters", () => {
  it("flattens nested parameters into one line", () => {
    expect(
      describeParams({ aligner: "dp", scoring: { method: "tfidf", window: [1, 2] }, gap: null }),
    ).toBe("aligner=dp scoring.method=tfidf scoring.window=1,2 gap=none");
  });
});

describe("Table 1 columns", () => {
  const setting = (section: string, name: string): AlignerSetting => ({
    key: `${section}.${name}`,
    section,
    name,
    kind: "number",
    nullable: true,
    choices: [],
    default: null,
    description: "",
  });
  const aligners: Aligner[] = [
    {
      name: "gapped",
      description: "",
      settings: ["match_offset", "skip_gain", "gap_open"].map((name) => setting("gapped", name)),
    },
    {
      name: "turns",
      description: "",
      settings: [
        ...["match_offset", "baseline_quantile", "unaligned_gain", "gap_open"].map((name) =>
          setting("turns", name),
        ),
        setting("scoring", "method"),
        setting("abstention", "min_words"),
      ],
    },
    { name: "diagonal", description: "", settings: [setting("abstention", "min_words")] },
  ];
  const params = {
    aligner: "gapped",
    scoring: { method: "embedding", window_size: 1, window_overlap: 0, idf_weighting: true },
    gapped: { match_offset: 0.35, gap_open: 3 },
    turns: { unaligned_gain: 4 },
  };

  it("name the window, the scoring and the aligner's own settings as the schema lists them", () => {
    expect(windowOf(params)).toBe("1 / 0");
    expect(scoringOf(params)).toBe("embedding, idf");
    expect(alignmentOf(params, aligners)).toBe("gapped, match offset 0.35, gap open 3");
    expect(alignmentOf({ ...params, aligner: "diagonal" }, aligners)).toBe("diagonal");
    expect(alignmentOf({ ...params, aligner: "dp" }, aligners)).toBe("dp");
    expect(
      alignmentOf(
        {
          aligner: "turns",
          scoring: { method: "embedding" },
          turns: { match_offset: 0.1, baseline_quantile: null, unaligned_gain: 4, gap_open: 80 },
          abstention: { min_words: 0, min_support: null },
        },
        aligners,
      ),
    ).toBe(
      "turns, match offset 0.1, baseline quantile none, unaligned gain 4, gap open 80, min words 0",
    );
  });

  it("puts what the grid varies first, and leaves it out of the aligner's column", () => {
    const varied = ["gapped.match_offset", "gapped.gap_open"];
    expect(variedOf(params, varied, aligners)).toBe("gapped.match_offset 0.35, gapped.gap_open 3");
    expect(alignmentOf(params, aligners, varied)).toBe("gapped");
    expect(variedOf({ ...params, gapped: { match_offset: null } }, varied, aligners)).toBe(
      "gapped.match_offset none",
    );
  });

  it("skips another aligner's varied settings, and says when nothing applies", () => {
    const varied = ["aligner", "gapped.match_offset", "scoring.window_size"];
    expect(variedOf({ ...params, aligner: "diagonal" }, varied, aligners)).toBe(
      "aligner diagonal, scoring.window_size 1",
    );
    expect(variedOf({ aligner: "diagonal" }, ["gapped.match_offset"], aligners)).toBe("—");
  });
});

describe("recordings", () => {
  it("sizes files in words", () => {
    expect(fileSize(300)).toBe("1 KB");
    expect(fileSize(840 * 1024)).toBe("840 KB");
    expect(fileSize(12.5 * 1024 * 1024)).toBe("12.5 MB");
  });

  it("says why a recording was refused", () => {
    const tooBig = new ApiError(413, "a.wav: the limit is 500 MB", {});
    expect(audioProblem(tooBig)).toBe("Too large: a.wav: the limit is 500 MB");
    const byProxy = new ApiError(413, "The server answered 413 Request Entity Too Large", null);
    expect(audioProblem(byProxy)).toBe("The recording is too large for this server.");
    const wrong = new ApiError(415, "a.mp3: this is not MP3 audio", {});
    expect(audioProblem(wrong)).toBe("Not a recording Tandem plays: a.mp3: this is not MP3 audio");
    expect(audioProblem(new Error("offline"))).toBe("offline");
  });
});
