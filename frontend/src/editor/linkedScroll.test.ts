import { describe, expect, it } from "vitest";
import { buildAnchors, follow, runStarts } from "./linkedScroll";
import { UNALIGNED as U } from "./state";

describe("runStarts", () => {
  it("finds where each segment's run of turns begins, across unaligned turns", () => {
    expect(runStarts([U, 0, 0, U, 0, 1, U, 3])).toEqual([
      { turn: 1, segment: 0 },
      { turn: 5, segment: 1 },
      { turn: 7, segment: 3 },
    ]);
  });
});

describe("buildAnchors and follow", () => {
  // Turns are 100 px tall; segments 300 px.
  const turnOffset = (turn: number) => turn * 100;
  const segmentOffset = (segment: number) => segment * 300;

  it("lines up each run's first turn with its segment and interpolates in between", () => {
    const anchors = buildAnchors([0, 0, 0, 1, 2, 2], turnOffset, segmentOffset, {
      turns: 600,
      segments: 900,
    });
    expect(anchors).toEqual([
      { turns: 0, segments: 0 },
      { turns: 300, segments: 300 },
      { turns: 400, segments: 600 },
      { turns: 600, segments: 900 },
    ]);
    expect(follow(anchors, 300, "turns", "segments")).toBe(300);
    expect(follow(anchors, 150, "turns", "segments")).toBe(150);
    expect(follow(anchors, 350, "turns", "segments")).toBe(450);
    expect(follow(anchors, 450, "segments", "turns")).toBe(350);
  });

  it("clamps offsets beyond the ends", () => {
    const anchors = buildAnchors([0, 1], turnOffset, segmentOffset, { turns: 200, segments: 600 });
    expect(follow(anchors, -20, "turns", "segments")).toBe(0);
    expect(follow(anchors, 5000, "turns", "segments")).toBe(600);
  });

  it("skips anchors that would go backwards in a document out of order", () => {
    const anchors = buildAnchors([0, 2, 1, 3], turnOffset, segmentOffset, {
      turns: 400,
      segments: 1200,
    });
    expect(anchors.map((anchor) => anchor.segments)).toEqual([0, 600, 900, 1200]);
  });

  it("copes with a single anchor", () => {
    const anchors = buildAnchors([U], turnOffset, segmentOffset, { turns: 0, segments: 0 });
    expect(follow(anchors, 10, "turns", "segments")).toBe(0);
  });
});
