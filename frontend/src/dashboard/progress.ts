import type { IterationDetail } from "../lead/api";

/** Per annotator, how many of their assigned documents they submitted. */
export function submissionsByAnnotator(
  iteration: IterationDetail,
): { annotator: number; submitted: number; assigned: number }[] {
  const rows = new Map<number, { annotator: number; submitted: number; assigned: number }>();
  for (const document of iteration.documents) {
    for (const annotator of document.assignees) {
      const row = rows.get(annotator) ?? { annotator, submitted: 0, assigned: 0 };
      row.assigned += 1;
      const own = document.annotations.find((annotation) => annotation.annotator === annotator);
      if (own?.submitted_at) row.submitted += 1;
      rows.set(annotator, row);
    }
  }
  return [...rows.values()].sort((a, b) => a.annotator - b.annotator);
}
