import { describe, expect, it } from "vitest";
import { parseBlocks, parseTranscript, searchableText, speakerOf, tidySpacing } from "./markup";

describe("parseBlocks", () => {
  it("turns the corpus tags into headings, speakers and paragraphs", () => {
    const blocks = parseBlocks(
      "<h> ouverture du congrès </h> <nom> frédéric beretta </nom> <p> la parole est à philippe . </p>",
    );
    expect(blocks).toEqual([
      { kind: "heading", text: "ouverture du congrès" },
      { kind: "speaker", text: "frédéric beretta" },
      { kind: "paragraph", text: "la parole est à philippe." },
    ]);
    expect(speakerOf(blocks)).toBe("frédéric beretta");
  });

  it("reads untagged text as a paragraph and keeps tables", () => {
    expect(parseBlocks("avant <table> a b </table> après")).toEqual([
      { kind: "paragraph", text: "avant" },
      { kind: "table", text: "a b" },
      { kind: "paragraph", text: "après" },
    ]);
  });

  it("drops empty blocks and has no speaker when none is named", () => {
    const blocks = parseBlocks("<p>   </p> <p> texte </p>");
    expect(blocks).toEqual([{ kind: "paragraph", text: "texte" }]);
    expect(speakerOf(blocks)).toBeNull();
  });
});

describe("tidySpacing", () => {
  it("joins elisions and punctuation the tokeniser split", () => {
    expect(tidySpacing("l' ordre du jour , c' est ( enfin ) fini .")).toBe(
      "l'ordre du jour, c'est (enfin) fini.",
    );
  });

  it("joins an apostrophe the ASR set apart", () => {
    expect(tidySpacing("aujourd ' hui")).toBe("aujourd'hui");
  });

  it("keeps the French space before double punctuation", () => {
    expect(tidySpacing("question : oui ?")).toBe("question : oui ?");
  });
});

describe("parseTranscript", () => {
  it("sets unrecognised words apart", () => {
    expect(parseTranscript("merci <unk> emmanuel .")).toEqual([
      { text: "merci", unknown: false },
      { text: "…", unknown: true },
      { text: "emmanuel.", unknown: false },
    ]);
  });
});

describe("searchableText", () => {
  it("removes tags and placeholders and lower-cases", () => {
    expect(searchableText("<nom> Anne </nom> <p> l' état <unk> . </p>")).toBe("anne l'état.");
  });
});
