import { describe, expect, it } from "vitest";
import { agrees, counted, listed, noun, transcriptUnit } from "./plural";

describe("counted", () => {
  it("says one thing in the singular and any other count in the plural", () => {
    expect(counted(1, "document")).toBe("1 document");
    expect(counted(0, "document")).toBe("0 documents");
    expect(counted(2, "gold document")).toBe("2 gold documents");
    expect(counted(1, "gold document")).toBe("1 gold document");
  });

  it("takes an irregular plural", () => {
    expect(counted(3, "analysis", "analyses")).toBe("3 analyses");
    expect(noun(1, "analysis", "analyses")).toBe("analysis");
  });
});

describe("agrees", () => {
  it("picks the verb for the count", () => {
    expect(`${counted(1, "turn")} ${agrees(1, "differs", "differ")}`).toBe("1 turn differs");
    expect(`${counted(4, "turn")} ${agrees(4, "differs", "differ")}`).toBe("4 turns differ");
  });
});

describe("listed", () => {
  it("joins as a sentence does", () => {
    expect(listed([])).toBe("");
    expect(listed(["a"])).toBe("a");
    expect(listed(["a", "b"])).toBe("a and b");
    expect(listed(["a", "b", "c"], "or")).toBe("a, b or c");
  });
});

describe("transcriptUnit", () => {
  it("calls a podcast project's units windows unless it keeps turns", () => {
    expect(transcriptUnit({ kind: "podcast", settings: {} })).toBe("window");
    expect(transcriptUnit({ kind: "podcast", settings: { transcript_unit: "turns" } })).toBe(
      "turn",
    );
    expect(transcriptUnit({ kind: "meeting", settings: {} })).toBe("turn");
    expect(counted(3, transcriptUnit({ kind: "podcast", settings: {} }))).toBe("3 windows");
  });
});
