import { describe, expect, it } from "vitest";
import { leftOff, startingTurn } from "./draft";

const local = (turn: number, at: string) => ({ turn, turnCount: 100, at: Date.parse(at) });
const server = (turn: number, at: string) => ({ turn, updated_at: at });

describe("startingTurn", () => {
  it("opens where the annotator was last, in this browser or on the server", () => {
    const earlier = "2026-11-22T10:00:00Z";
    const later = "2026-11-22T11:00:00Z";
    expect(startingTurn(local(5, earlier), server(40, later), 100)).toBe(40);
    expect(startingTurn(local(5, later), server(40, earlier), 100)).toBe(5);
    expect(startingTurn(null, server(40, earlier), 100)).toBe(40);
    expect(startingTurn(local(5, earlier), null, 100)).toBe(5);
    expect(startingTurn(null, null, 100)).toBe(0);
  });

  it("starts at the first turn when the remembered one is past the end", () => {
    expect(startingTurn(null, server(140, "2026-11-22T10:00:00Z"), 100)).toBe(0);
  });
});

describe("leftOff", () => {
  const earlier = "2026-11-22T10:00:00Z";
  const later = "2026-11-22T11:00:00Z";

  it("reads the server's position when this browser has none", () => {
    expect(leftOff(null, server(40, later), 60)).toEqual({
      turn: 40,
      turnCount: 60,
      at: Date.parse(later),
    });
  });

  it("keeps the later of the two", () => {
    expect(leftOff(local(5, later), server(40, earlier), 60)?.turn).toBe(5);
    expect(leftOff(local(5, earlier), server(40, later), 60)?.turn).toBe(40);
  });

  it("is null before either, or past the document's end", () => {
    expect(leftOff(null, null, 60)).toBeNull();
    expect(leftOff(null, server(70, later), 60)).toBeNull();
  });
});
