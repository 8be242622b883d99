/** Adjudication's side of the API: the disagreement view's payload and the same bulk edits,
 * completion and reopening as an annotation, under `documents/{id}/adjudication/`. */
import {
  ConflictError,
  documentIds,
  withConflicts,
  type AnnotationData,
  type Operation,
  type SaveTarget,
} from "./annotation";
import { apiRequest } from "./client";
import type { Schema } from "./schema";

/** `id` is null until the first save: version 0 is then a copy of the first submission. */
export type AdjudicationData = Schema<"AdjudicationOutput">;
export type AdjudicationPayload = Schema<"AdjudicationPayload">;

export function fetchAdjudicationPayload(
  projectId: number,
  documentId: number,
  signal?: AbortSignal,
): Promise<AdjudicationPayload> {
  return apiRequest("GET", "projects/{project_id}/documents/{document_id}/adjudication/", {
    path: documentIds(projectId, documentId),
    signal,
  });
}

/** The adjudication in the shape the editor saves: completing it is its "submission". */
export function asAnnotation(adjudication: AdjudicationData): AnnotationData {
  return {
    id: adjudication.id,
    version: adjudication.version,
    annotator: adjudication.curator ?? 0,
    pre_alignment: null,
    assignments: adjudication.assignments,
    changed: adjudication.changed,
    reviewed: [],
    accepted_without_review: [],
    seconds_spent: adjudication.seconds_spent,
    submitted_at: adjudication.completed_at,
  };
}

/** Answers as an annotation, and turns a conflict's stored adjudication into one too. */
async function adjudicationRequest(
  request: () => Promise<AdjudicationData>,
): Promise<AnnotationData> {
  try {
    return asAnnotation(await withConflicts(request));
  } catch (error) {
    if (error instanceof ConflictError) {
      // `current` is the adjudication as stored, in the adjudication's own shape.
      const current = error.current as unknown as AdjudicationData;
      throw new ConflictError(error.message, asAnnotation(current));
    }
    throw error;
  }
}

export function adjudicationTarget(projectId: number, documentId: number): SaveTarget {
  const path = documentIds(projectId, documentId);
  return {
    draftScope: `adjudication:${documentId}`,
    recordsReview: false,
    save: (version: number, operations: Operation[], secondsSpent: number) =>
      adjudicationRequest(() =>
        apiRequest("POST", "projects/{project_id}/documents/{document_id}/adjudication/", {
          path,
          body: { version, operations, seconds_spent: secondsSpent },
        }),
      ),
    submit: (version: number, secondsSpent: number) =>
      adjudicationRequest(() =>
        apiRequest("POST", "projects/{project_id}/documents/{document_id}/adjudication/complete/", {
          path,
          body: { version, seconds_spent: secondsSpent },
        }),
      ),
    reopen: (version: number) =>
      adjudicationRequest(() =>
        apiRequest("POST", "projects/{project_id}/documents/{document_id}/adjudication/reopen/", {
          path,
          body: { version },
        }),
      ),
  };
}
