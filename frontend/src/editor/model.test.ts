import { describe, expect, it } from "vitest";
import type { EditorPayload } from "../api/annotation";
import { buildModel, findNext, formatTime, importanceBySegment } from "./model";

const payload: EditorPayload = {
  document: {
    id: 1,
    project: 1,
    name: "Séance",
    source: "",
    status: "pre_aligned",
    iteration: null,
    segment_count: 1,
    turn_count: 2,
    word_count: 4,
  },
  segments: [
    {
      position: 0,
      key: "0_0_0",
      speaker: "",
      text: "<nom> anne </nom> <p> bonjour . </p>",
      word_count: 2,
    },
  ],
  turns: [
    {
      position: 0,
      key: "t0",
      speaker: "",
      start: null,
      end: null,
      text: "bonjour <unk>",
      word_count: 2,
    },
    { position: 1, key: "t1", speaker: "spk1", start: 3, end: 5, text: "merci", word_count: 1 },
  ],
  pre_alignment: {
    id: 1,
    parameter_set: 1,
    engine_version: "test",
    params: {},
    labels: [0, -1],
    confidences: [0.9, 0.2],
    low_confidence_below: 0.4,
    warnings: [],
    computed_at: "",
  },
  annotation: {
    id: null,
    version: 0,
    annotator: 1,
    pre_alignment: 1,
    assignments: [0, -1],
    changed: [false, false],
    reviewed: [],
    accepted_without_review: [],
    seconds_spent: 0,
    submitted_at: null,
  },
  may_annotate: true,
  may_reopen: true,
  position: null,
  assignees: [],
  annotations: [],
  excluded_sections: [],
  audio_url: null,
  turn_words: [],
};

describe("buildModel", () => {
  it("parses texts once and marks low-confidence turns", () => {
    const model = buildModel(payload);
    expect(model.segments[0]!.speaker).toBe("anne");
    const named = buildModel({
      ...payload,
      segments: [{ ...payload.segments[0]!, speaker: "une intervenante ( mathilde )" }],
    });
    expect(named.segments[0]!.speaker).toBe("une intervenante (mathilde)");
    expect(model.segments[0]!.searchText).toBe("anne bonjour.");
    expect(model.turns[0]!.pieces.map((piece) => piece.unknown)).toEqual([false, true]);
    expect(model.turns.map((turn) => turn.lowConfidence)).toEqual([false, true]);
    expect(model.turns[1]!.speaker).toBe("spk1");
    expect(model.preAlignment).toEqual([0, -1]);
  });

  it("marks turns below the project's own threshold", () => {
    const strict = buildModel({
      ...payload,
      pre_alignment: { ...payload.pre_alignment!, low_confidence_below: 0.95 },
    });
    expect(strict.turns.map((turn) => turn.lowConfidence)).toEqual([true, true]);
    const lenient = buildModel({
      ...payload,
      pre_alignment: { ...payload.pre_alignment!, low_confidence_below: 0.1 },
    });
    expect(lenient.turns.map((turn) => turn.lowConfidence)).toEqual([false, false]);
  });

  it("treats every turn as unaligned and none as doubtful without a pre-alignment", () => {
    const model = buildModel({ ...payload, pre_alignment: null });
    expect(model.preAlignment).toEqual([-1, -1]);
    expect(model.turns.some((turn) => turn.lowConfidence)).toBe(false);
  });
});

describe("talk projects", () => {
  const paper: EditorPayload = {
    ...payload,
    segments: ["Abstract", "1 Introduction", "1 Introduction", "2 Method"].map(
      (section, position) => ({
        position,
        key: `s${position}`,
        speaker: "",
        section,
        text: "a sentence .",
        word_count: 2,
      }),
    ),
    excluded_sections: ["Abstract"],
  };

  it("groups segments under their sections and greys the excluded ones", () => {
    const model = buildModel(paper);
    expect(model.segments.map((segment) => segment.opensSection)).toEqual([
      true,
      true,
      false,
      true,
    ]);
    expect(model.segments.map((segment) => segment.excluded)).toEqual([true, false, false, false]);
    expect(buildModel(payload).segments[0]!.section).toBeNull();
  });

  it("counts the spoken words of the turns aligned to each segment", () => {
    expect(importanceBySegment([1, -1, 1, 3], [5, 7, 2, 4], 4)).toEqual([0, 7, 0, 4]);
    expect(importanceBySegment([], [], 2)).toEqual([0, 0]);
  });
});

describe("formatTime", () => {
  it("shows hours only when needed", () => {
    expect(formatTime(62.4)).toBe("1:02");
    expect(formatTime(3723)).toBe("1:02:03");
  });
});

describe("findNext", () => {
  const marked = (index: number) => index === 1 || index === 4;
  it("wraps around in both directions", () => {
    expect(findNext(6, 1, 1, marked)).toBe(4);
    expect(findNext(6, 4, 1, marked)).toBe(1);
    expect(findNext(6, 1, -1, marked)).toBe(4);
    expect(findNext(6, 0, 1, () => false)).toBeNull();
  });
});
