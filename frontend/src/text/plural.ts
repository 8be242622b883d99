/**
 * The app's one place for counted nouns and lists in running text, so that every page says
 * "1 document" and "2 documents", and "a, b and c", the same way.
 */

/** The noun for `count`: `singular` for exactly one, else `plural` (the singular + "s" by
 * default). */
export function noun(count: number, singular: string, plural = `${singular}s`): string {
  return count === 1 ? singular : plural;
}

/** "1 document", "0 documents", "3 windows". */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${noun(count, singular, plural)}`;
}

/** The verb agreeing with `count`: "differs" for one, "differ" otherwise. */
export function agrees(count: number, singular: string, plural: string): string {
  return count === 1 ? singular : plural;
}

/** "a", "a and b", "a, b and c". */
export function listed(items: readonly string[], conjunction = "and"): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} ${conjunction} ${items[items.length - 1]}`;
}

/** What a project's transcript units are called: a podcast project cuts its transcripts into
 * time windows (unless its settings keep the reader's turns); other projects have turns. */
export function transcriptUnit(project: {
  kind: string;
  settings: { transcript_unit?: string | null };
}): "window" | "turn" {
  return project.kind === "podcast" && project.settings.transcript_unit !== "turns"
    ? "window"
    : "turn";
}
