import { describe, expect, it } from "vitest";
import { differenceText, differences, flatParams, tiedGroups } from "./candidates";

const incumbent = {
  aligner: "gapped",
  scoring: { method: "embeddings", window_size: 10 },
  gapped: { match_offset: 0.25 },
};

describe("differences", () => {
  it("names only the settings that differ from the incumbent", () => {
    const candidate = {
      aligner: "gapped",
      scoring: { method: "tfidf", window_size: 10 },
      gapped: { match_offset: 0.25 },
    };
    expect(differences(candidate, incumbent)).toEqual([
      { name: "scoring.method", value: "tfidf", inUse: "embeddings" },
    ]);
    expect(differences(incumbent, incumbent)).toEqual([]);
  });

  it("shows another aligner's settings as new, and everything without an incumbent", () => {
    const hmm = {
      aligner: "hmm",
      scoring: { method: "embeddings", window_size: 10 },
      hmm: { lam: 0.75 },
    };
    expect(differences(hmm, incumbent)).toEqual([
      { name: "aligner", value: "hmm", inUse: "gapped" },
    ]);
    expect(differences(hmm, incumbent, ["hmm.lam"])).toEqual([
      { name: "aligner", value: "hmm", inUse: "gapped" },
      { name: "hmm.lam", value: "0.75", inUse: null },
    ]);
    expect(differences({ aligner: "diagonal" }, null)).toEqual([
      { name: "aligner", value: "diagonal", inUse: null },
    ]);
    expect(differenceText({ name: "aligner", value: "hmm", inUse: "gapped" })).toBe(
      "aligner hmm (in use: gapped)",
    );
  });

  it("flattens nested sections and lists", () => {
    expect([...flatParams({ a: { b: [1, 2] }, c: null })]).toEqual([
      ["a.b", "1,2"],
      ["c", "null"],
    ]);
  });
});

describe("tiedGroups", () => {
  const row = (id: number, segment: number | null, documents = 3) => ({
    id,
    segment_accuracy: segment,
    word_accuracy: segment,
    window_diff: segment,
    documents_evaluated: documents,
  });

  it("groups consecutive candidates with the same figures", () => {
    const groups = tiedGroups([row(1, 80), row(2, 70), row(3, 70), row(4, 70, 1), row(5, 60)]);
    expect(groups.map((group) => group.map((candidate) => candidate.id))).toEqual([
      [1],
      [2, 3],
      [4],
      [5],
    ]);
  });

  it("never groups candidates without scores", () => {
    expect(tiedGroups([row(1, null), row(2, null)])).toHaveLength(2);
  });
});
