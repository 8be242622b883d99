import { describe, expect, it } from "vitest";
import type { DocumentSummary } from "../api/documents";
import { yourStatus } from "./DocumentListPage";

function summary(
  status: DocumentSummary["status"],
  mine: DocumentSummary["my_annotation"],
): DocumentSummary {
  return {
    id: 1,
    name: "d",
    source: "upload",
    status,
    iteration: null,
    assignees: [],
    import_error: "",
    created_at: "",
    segment_count: 1,
    turn_count: 1,
    word_count: 1,
    updated_at: "",
    my_annotation: mine,
    my_position: null,
    audio: null,
  };
}

describe("yourStatus", () => {
  it("is not submitted because a co-annotator submitted", () => {
    expect(yourStatus(summary("submitted", null))).toBe("pre_aligned");
    expect(yourStatus(summary("submitted", { version: 3, submitted_at: null }))).toBe(
      "in_annotation",
    );
    expect(yourStatus(summary("submitted", { version: 4, submitted_at: "2026-11-22" }))).toBe(
      "submitted",
    );
  });

  it("keeps the statuses that are no one's work", () => {
    expect(yourStatus(summary("importing", null))).toBe("importing");
  });
});
