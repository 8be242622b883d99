import { describe, expect, it } from "vitest";
import type { IterationDetail } from "../lead/api";
import { submissionsByAnnotator } from "./progress";

const annotation = (annotator: number, submitted: boolean) => ({
  annotator,
  version: 1,
  turns_changed: 0,
  seconds_spent: 0,
  submitted_at: submitted ? "2026-11-22T10:00:00Z" : null,
});

describe("submissionsByAnnotator", () => {
  it("counts each assignee's own submissions over the documents assigned to them", () => {
    const iteration = {
      documents: [
        { assignees: [2, 3], annotations: [annotation(2, true), annotation(3, false)] },
        { assignees: [2], annotations: [annotation(2, false)] },
        { assignees: [3], annotations: [annotation(3, true), annotation(2, true)] },
        { assignees: [], annotations: [] },
      ],
    } as unknown as IterationDetail;

    expect(submissionsByAnnotator(iteration)).toEqual([
      { annotator: 2, submitted: 1, assigned: 2 },
      { annotator: 3, submitted: 1, assigned: 2 },
    ]);
  });
});
