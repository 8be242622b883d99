import { describe, expect, it } from "vitest";
import { commandOf, parseRatingPath, percent, progressText, ratingPath } from "./model";

const press = (key: string, extra: Partial<Parameters<typeof commandOf>[0]> = {}) =>
  commandOf({ key, ctrlKey: false, metaKey: false, altKey: false, inField: false, ...extra });

describe("rating keys", () => {
  it("answers with y, p and n, in either case", () => {
    expect(press("y")).toEqual({ kind: "answer", answer: "yes" });
    expect(press("P")).toEqual({ kind: "answer", answer: "partly" });
    expect(press("n")).toEqual({ kind: "answer", answer: "no" });
  });

  it("opens the note with c and undoes with u", () => {
    expect(press("c")).toEqual({ kind: "note" });
    expect(press("u")).toEqual({ kind: "undo" });
  });

  it("ignores typing in the note, modified keys and other keys", () => {
    expect(press("y", { inField: true })).toBeNull();
    expect(press("n", { ctrlKey: true })).toBeNull();
    expect(press("u", { metaKey: true })).toBeNull();
    expect(press("x")).toBeNull();
  });
});

describe("rating figures and paths", () => {
  it("states progress", () => {
    expect(progressText(3, 12)).toBe("3 of 12 rated (25 %)");
    expect(progressText(0, 0)).toBe("0 of 0 rated (0 %)");
  });

  it("writes shares as percentages", () => {
    expect(percent(0.9069)).toBe("90.7 %");
    expect(percent(null)).toBe("–");
  });

  it("round-trips the page's path", () => {
    expect(parseRatingPath(ratingPath(4, 17))).toEqual({ projectId: 4, studyId: 17 });
    expect(parseRatingPath("/projects/4/ratings/")).toBeNull();
  });
});
