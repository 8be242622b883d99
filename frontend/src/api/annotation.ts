/** The editor's side of the API: one request to load a document, bulk edits, submit. */
import { ApiError, apiRequest } from "./client";
import type { Schema } from "./schema";

export type DocumentStatus = Schema<"DocumentStatusEnum">;
/** `id` is null until the annotator's first save; the version is then 0. */
export type AnnotationData = Schema<"AnnotationOutput">;
export type EditorPayload = Schema<"EditorPayload">;
/** The turns the editor's review mode shows, at the document's iteration's threshold. */
export type DocumentReview = Schema<"DocumentReview">;

/** An edit as the editor makes it: narrower than the schema's `Operation`, which cannot say
 * that `assign` (and only `assign`) needs a segment; tsc checks it still fits where it is sent. */
export type Operation =
  | { action: "assign"; first_turn: number; last_turn: number; segment: number }
  | { action: "unalign"; first_turn: number; last_turn: number }
  | { action: "reset"; first_turn: number; last_turn: number };

/** The path parameters of every `projects/{project_id}/documents/{document_id}/...` call. */
export function documentIds(projectId: number, documentId: number) {
  return { project_id: projectId, document_id: documentId };
}

export function fetchEditorPayload(
  projectId: number,
  documentId: number,
  signal?: AbortSignal,
): Promise<EditorPayload> {
  return apiRequest("GET", "projects/{project_id}/documents/{document_id}/editor/", {
    path: documentIds(projectId, documentId),
    signal,
  });
}

export function fetchDocumentReview(
  projectId: number,
  documentId: number,
  signal?: AbortSignal,
): Promise<DocumentReview> {
  return apiRequest("GET", "projects/{project_id}/documents/{document_id}/review/", {
    path: documentIds(projectId, documentId),
    signal,
  });
}

/** Draws the caller's spot check once the turns the review mode shows are reviewed; the
 * server chooses the turns, and asking again returns the same draw. */
export function drawSpotCheck(projectId: number, documentId: number): Promise<DocumentReview> {
  return apiRequest("POST", "projects/{project_id}/documents/{document_id}/review/spot-check/", {
    path: documentIds(projectId, documentId),
  });
}

/** Applies `operations` made on `version` and records `reviewedTurns`; a stale version
 * throws a ConflictError. */
export async function saveOperations(
  projectId: number,
  documentId: number,
  version: number,
  operations: Operation[],
  secondsSpent: number,
  reviewedTurns: readonly number[] = [],
): Promise<AnnotationData> {
  return withConflicts(() =>
    apiRequest("POST", "projects/{project_id}/documents/{document_id}/annotation/", {
      path: documentIds(projectId, documentId),
      body: {
        version,
        operations,
        seconds_spent: secondsSpent,
        reviewed_turns: [...reviewedTurns],
      },
    }),
  );
}

/** How a submission ends: the turns reviewed since the last save, and whether the turns
 * never reviewed are accepted without review (the review mode's "accept the rest"). */
export interface SubmitOptions {
  reviewedTurns?: readonly number[];
  acceptUnreviewed?: boolean;
}

export function submitAnnotation(
  projectId: number,
  documentId: number,
  version: number,
  secondsSpent: number,
  { reviewedTurns = [], acceptUnreviewed = false }: SubmitOptions = {},
): Promise<AnnotationData> {
  return withConflicts(() =>
    apiRequest("POST", "projects/{project_id}/documents/{document_id}/annotation/submit/", {
      path: documentIds(projectId, documentId),
      body: {
        version,
        seconds_spent: secondsSpent,
        reviewed_turns: [...reviewedTurns],
        accept_unreviewed: acceptUnreviewed,
      },
    }),
  );
}

/** Takes the caller's submission back for more corrections; refused (409, with the reason)
 * once the document's iteration is closed. */
export function reopenAnnotation(
  projectId: number,
  documentId: number,
  version: number,
): Promise<AnnotationData> {
  return apiRequest("POST", "projects/{project_id}/documents/{document_id}/annotation/reopen/", {
    path: documentIds(projectId, documentId),
    body: { version },
  });
}

/** Where the editor saves: the caller's annotation, or a document's adjudication. */
export interface SaveTarget {
  /** Keeps this target's unsaved edits apart from the others' in the browser. */
  draftScope: string;
  /** Saves record the turns reviewed (the caller's annotation; not an adjudication). */
  recordsReview: boolean;
  save(
    version: number,
    operations: Operation[],
    secondsSpent: number,
    reviewedTurns: readonly number[],
  ): Promise<AnnotationData>;
  submit(version: number, secondsSpent: number, options?: SubmitOptions): Promise<AnnotationData>;
  reopen(version: number): Promise<AnnotationData>;
}

export function annotationTarget(projectId: number, documentId: number): SaveTarget {
  return {
    draftScope: String(documentId),
    recordsReview: true,
    save: (version, operations, secondsSpent, reviewedTurns) =>
      saveOperations(projectId, documentId, version, operations, secondsSpent, reviewedTurns),
    submit: (version, secondsSpent, options) =>
      submitAnnotation(projectId, documentId, version, secondsSpent, options),
    reopen: (version) => reopenAnnotation(projectId, documentId, version),
  };
}

/** Someone else saved first (or the annotation was submitted); `current` is what is stored. */
export class ConflictError extends Error {
  readonly current: AnnotationData;

  constructor(message: string, current: AnnotationData) {
    super(message);
    this.name = "ConflictError";
    this.current = current;
  }
}

export async function withConflicts<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (error instanceof ApiError && error.status === 409 && hasCurrent(error.body)) {
      throw new ConflictError(error.message, error.body.current);
    }
    throw error;
  }
}

function hasCurrent(body: unknown): body is { current: AnnotationData } {
  return typeof body === "object" && body !== null && "current" in body;
}
