import { describe, expect, it } from "vitest";
import { selectionSpan, timedWords, turnAt, wordAt, type Timed } from "./playback";

const turns: Timed[] = [
  { start: 0, end: 4 },
  { start: 5, end: 9.5 },
  { start: null, end: null },
  { start: 10, end: 12 },
];

describe("selectionSpan", () => {
  it("plays one turn from its start to its end", () => {
    expect(selectionSpan(turns, 1, 1)).toEqual({ start: 5, end: 9.5 });
  });
  it("plays a run from its first start to its last end, over untimed turns", () => {
    expect(selectionSpan(turns, 0, 3)).toEqual({ start: 0, end: 12 });
    expect(selectionSpan(turns, 1, 2)).toEqual({ start: 5, end: 9.5 });
  });
  it("has nothing to play without times", () => {
    expect(selectionSpan(turns, 2, 2)).toBeNull();
    expect(selectionSpan([{ start: 3, end: 3 }], 0, 0)).toBeNull();
  });
});

describe("turnAt", () => {
  it("finds the turn under the playhead", () => {
    expect(turnAt(turns, 0)).toBe(0);
    expect(turnAt(turns, 6)).toBe(1);
    expect(turnAt(turns, 11.9)).toBe(3);
  });
  it("is null in a silence, before the first turn and after the last", () => {
    expect(turnAt(turns, 4.5)).toBeNull();
    expect(turnAt(turns, 9.7)).toBeNull();
    expect(turnAt(turns, 12)).toBeNull();
    expect(turnAt([{ start: 2, end: 3 }], 1)).toBeNull();
    expect(turnAt([], 1)).toBeNull();
  });
  it("skips turns without times", () => {
    const sparse: Timed[] = [
      { start: null, end: null },
      { start: 1, end: 2 },
      { start: null, end: null },
      { start: null, end: null },
      { start: 3, end: 4 },
    ];
    expect(turnAt(sparse, 1.5)).toBe(1);
    expect(turnAt(sparse, 3.5)).toBe(4);
    expect(turnAt(sparse, 2.5)).toBeNull();
  });
});

describe("wordAt", () => {
  const words = timedWords([
    [
      ["Hello", 0, 0.5],
      ["there.", 0.7, 1.2],
    ],
  ])[0]!;
  it("reads the payload's triples", () => {
    expect(words[1]).toEqual({ text: "there.", start: 0.7, end: 1.2 });
  });
  it("finds the word being said, and none between words", () => {
    expect(wordAt(words, 0.2)).toBe(0);
    expect(wordAt(words, 0.6)).toBeNull();
    expect(wordAt(words, 0.7)).toBe(1);
    expect(wordAt(words, 1.2)).toBeNull();
    expect(wordAt([], 1)).toBeNull();
  });
});
