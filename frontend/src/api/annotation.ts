/** The editor's side of the API: one request to load a document, bulk edits, submit. */
import { ApiError, apiRequest } from "./client";

export type DocumentStatus =
  "importing" | "import_failed" | "imported" | "pre_aligned" | "in_annotation" | "submitted";

export interface EditorDocumentInfo {
  id: number;
  project: number;
  name: string;
  source: string;
  status: DocumentStatus;
  iteration: number | null;
  segment_count: number;
  turn_count: number;
  word_count: number;
}

export interface SegmentData {
  position: number;
  key: string;
  speaker: string;
  text: string;
  word_count: number;
}

export interface TurnData {
  position: number;
  key: string;
  speaker: string;
  start: number | null;
  end: number | null;
  text: string;
  word_count: number;
}

export interface PreAlignmentData {
  id: number;
  labels: number[];
  /** Empty when the source of the pre-alignment gave none. */
  confidences: number[];
  computed_at: string;
}

export interface AnnotationData {
  /** Null until the annotator's first save; the version is then 0. */
  id: number | null;
  version: number;
  annotator: number;
  assignments: number[];
  changed: boolean[];
  seconds_spent: number;
  submitted_at: string | null;
}

export interface EditorPayload {
  document: EditorDocumentInfo;
  segments: SegmentData[];
  turns: TurnData[];
  pre_alignment: PreAlignmentData | null;
  annotation: AnnotationData;
}

export type Operation =
  | { action: "assign"; first_turn: number; last_turn: number; segment: number }
  | { action: "unalign"; first_turn: number; last_turn: number }
  | { action: "reset"; first_turn: number; last_turn: number };

function documentPath(projectId: number, documentId: number): string {
  return `projects/${projectId}/documents/${documentId}/`;
}

export function fetchEditorPayload(
  projectId: number,
  documentId: number,
  signal?: AbortSignal,
): Promise<EditorPayload> {
  return apiRequest<EditorPayload>("GET", `${documentPath(projectId, documentId)}editor/`, {
    signal,
  });
}

/** Applies `operations` made on `version`; a stale version throws a ConflictError. */
export async function saveOperations(
  projectId: number,
  documentId: number,
  version: number,
  operations: Operation[],
  secondsSpent: number,
): Promise<AnnotationData> {
  return withConflicts(() =>
    apiRequest<AnnotationData>("POST", `${documentPath(projectId, documentId)}annotation/`, {
      body: { version, operations, seconds_spent: secondsSpent },
    }),
  );
}

export function submitAnnotation(
  projectId: number,
  documentId: number,
  version: number,
  secondsSpent: number,
): Promise<AnnotationData> {
  return withConflicts(() =>
    apiRequest<AnnotationData>("POST", `${documentPath(projectId, documentId)}annotation/submit/`, {
      body: { version, seconds_spent: secondsSpent },
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
  return apiRequest<AnnotationData>(
    "POST",
    `${documentPath(projectId, documentId)}annotation/reopen/`,
    {
      body: { version },
    },
  );
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

async function withConflicts<T>(request: () => Promise<T>): Promise<T> {
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
