/**
 * Report and transcript texts arrive in the corpus form: lower-cased, tokenised ("l' ordre",
 * "fin ."), with <h>, <nom>, <p> and <table> tags and <unk> for words the ASR could not read.
 * Annotators should read formatted text, so the tags become blocks and the spacing is tidied.
 */

export type BlockKind = "heading" | "speaker" | "paragraph" | "table";

export interface Block {
  kind: BlockKind;
  text: string;
}

const TAG_KINDS: Record<string, BlockKind> = {
  h: "heading",
  nom: "speaker",
  p: "paragraph",
  table: "table",
};

const TAG = /<(\/?)(h|nom|p|table)>/g;

/** Splits a tagged text into blocks; untagged text between tags reads as a paragraph. */
export function parseBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let open: BlockKind | null = null;
  let start = 0;
  const flush = (end: number) => {
    const content = tidySpacing(text.slice(start, end));
    if (content) blocks.push({ kind: open ?? "paragraph", text: content });
  };
  for (const match of text.matchAll(TAG)) {
    flush(match.index);
    const [, closing, tag] = match;
    open = closing ? null : TAG_KINDS[tag!]!;
    start = match.index + match[0].length;
  }
  flush(text.length);
  return blocks;
}

/** Undoes the corpus tokenisation for reading: "l' ordre , du jour ." → "l'ordre, du jour." */
export function tidySpacing(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .replace(/(\w) (['’]) (?=\w)/g, "$1$2")
    .replace(/(\w[’'])\s+/g, "$1")
    .replace(/\s+([,.)\]…])/g, "$1")
    .replace(/([([])\s+/g, "$1")
    .trim();
}

/** The ASR's placeholder for a word it could not recognise. */
export const UNKNOWN_WORD = "<unk>";

export interface TranscriptPiece {
  text: string;
  unknown: boolean;
}

/** A transcript turn as runs of readable text and unrecognised words, which are shown apart. */
export function parseTranscript(text: string): TranscriptPiece[] {
  return text.split(UNKNOWN_WORD).flatMap((part, index) => {
    const pieces: TranscriptPiece[] = [];
    if (index > 0) pieces.push({ text: "…", unknown: true });
    const readable = tidySpacing(part);
    if (readable) pieces.push({ text: readable, unknown: false });
    return pieces;
  });
}

/** The first speaker named in a segment, for the segment's header. */
export function speakerOf(blocks: readonly Block[]): string | null {
  return blocks.find((block) => block.kind === "speaker")?.text ?? null;
}

/** Plain text for searching: lower-cased, tags removed, spacing tidied like the display. */
export function searchableText(text: string): string {
  return tidySpacing(text.replace(TAG, " ").split(UNKNOWN_WORD).join(" ")).toLowerCase();
}
