/** The rating page's keyboard and figures, as pure functions the unit tests read. */
import type { Schema } from "../api/schema";

export type RatingAnswer = Schema<"AnswerEnum">;

export type RatingCommand =
  { kind: "answer"; answer: RatingAnswer } | { kind: "note" } | { kind: "undo" };

const KEYS: Record<string, RatingCommand> = {
  y: { kind: "answer", answer: "yes" },
  p: { kind: "answer", answer: "partly" },
  n: { kind: "answer", answer: "no" },
  c: { kind: "note" },
  u: { kind: "undo" },
};

/** The command a key press means, or null: keys typed into a field (the note) or with a
 * modifier (the browser's own shortcuts) are not commands. */
export function commandOf(event: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  inField: boolean;
}): RatingCommand | null {
  if (event.inField || event.ctrlKey || event.metaKey || event.altKey) return null;
  return KEYS[event.key.toLowerCase()] ?? null;
}

export function progressText(done: number, total: number): string {
  const percent = total ? Math.round((100 * done) / total) : 0;
  return `${done} of ${total} rated (${percent} %)`;
}

/** A share (0 to 1) as a percentage, or a dash when undefined. */
export function percent(share: number | null | undefined): string {
  return share === null || share === undefined ? "–" : `${(100 * share).toFixed(1)} %`;
}

export function ratingPath(projectId: number, studyId: number): string {
  return `/projects/${projectId}/ratings/${studyId}`;
}

const RATING_PATH = /^\/projects\/(\d+)\/ratings\/(\d+)\/?$/;

export function parseRatingPath(pathname: string): { projectId: number; studyId: number } | null {
  const match = RATING_PATH.exec(pathname);
  return match ? { projectId: Number(match[1]), studyId: Number(match[2]) } : null;
}
