/**
 * The lead's side of the REST API: projects and members, uploads and their import jobs,
 * iterations, tuning candidates, promotion. Shapes follow docs/bootstrap.md.
 */
import type { DocumentStatus } from "../api/annotation";
import { apiRequest, fetchAllPages, type Page } from "../api/client";
import type { ProjectRole } from "../api/documents";

export interface ProjectDetail {
  id: number;
  name: string;
  description: string;
  language: string;
  promoted_parameter_set: number | null;
  settings: Record<string, unknown>;
  role: ProjectRole | null;
}

export interface Member {
  id: number;
  user: number;
  username: string;
  role: ProjectRole;
}

export interface LeadDocument {
  id: number;
  name: string;
  source: string;
  status: DocumentStatus;
  iteration: number | null;
  assignees: number[];
  segment_count: number;
  turn_count: number;
  word_count: number;
  import_error: string;
}

export type JobStatus = "queued" | "running" | "succeeded" | "failed" | "cancelled";

export interface Job {
  id: number;
  kind: string;
  status: JobStatus;
  progress: number;
  message: string;
  error: string;
  document: number | null;
  created_at: string;
}

export type JobBrief = Pick<Job, "id" | "status" | "progress" | "message" | "error">;

export const FINISHED_JOB_STATUSES: ReadonlySet<JobStatus> = new Set([
  "succeeded",
  "failed",
  "cancelled",
]);

export interface Candidate {
  id: number;
  index: number;
  rank: number | null;
  stage: number;
  documents_evaluated: number;
  segment_accuracy: number | null;
  word_accuracy: number | null;
  window_diff: number | null;
  objective: number | null;
  params: AlignmentParams;
}

/** The engine's AlignmentParams as JSON: nested sections of plain values. */
export type AlignmentParams = Record<string, unknown>;

export interface TuningBrief {
  id: number;
  job: JobBrief;
  settings_count: number;
  ranked_by: "turns" | "balanced";
  /** What `ranked_by` means, in words. */
  ranked_by_label: string;
  gold_documents: number[];
  proposal: Candidate | null;
}

export interface Distribution {
  count: number;
  mean: number | null;
  median: number | null;
  min: number | null;
  q1: number | null;
  q3: number | null;
  max: number | null;
}

export const ACCURACY_METRICS = [
  "human_turn_accuracy",
  "human_word_accuracy",
  "segment_accuracy",
  "word_accuracy",
  "windowdiff",
] as const;
export type AccuracyMetric = (typeof ACCURACY_METRICS)[number];

export type IterationStatus = "open" | "annotating" | "closing" | "closed";

export interface Iteration {
  id: number;
  number: number;
  name: string;
  status: IterationStatus;
  document_count: number;
  parameter_set: number | null;
  parameters: { name?: string; params?: AlignmentParams };
  pre_align_job: JobBrief | null;
  tuning: TuningBrief | null;
  promoted_parameter_set: number | null;
  created_at: string;
  closed_at: string | null;
}

export interface BatchAnnotation {
  annotator: number;
  version: number;
  turns_changed: number;
  seconds_spent: number;
  submitted_at: string | null;
}

export type AccuracyRecord = Record<AccuracyMetric, number> & {
  annotator: number | null;
  turns: number;
  unchanged_turns: number;
  seconds_spent: number;
};

export interface BatchDocument {
  id: number;
  name: string;
  status: DocumentStatus;
  turn_count: number;
  assignees: number[];
  pre_alignment: number | null;
  annotations: BatchAnnotation[];
  record: AccuracyRecord | null;
}

export interface IterationDetail extends Iteration {
  accuracy: Record<AccuracyMetric, Distribution>;
  documents: BatchDocument[];
}

export interface ParameterSet {
  id: number;
  name: string;
  params: AlignmentParams;
  created_at: string;
}

const project = (projectId: number) => `projects/${projectId}/`;

export const fetchProject = (projectId: number, signal?: AbortSignal) =>
  apiRequest<ProjectDetail>("GET", project(projectId), { signal });

export const createProject = (fields: { name: string; description: string }) =>
  apiRequest<ProjectDetail>("POST", "projects/", { body: fields });

export const updateProject = (projectId: number, fields: { name: string; description: string }) =>
  apiRequest<ProjectDetail>("PATCH", project(projectId), { body: fields });

export const fetchMembers = (projectId: number, signal?: AbortSignal) =>
  fetchAllPages<Member>(`${project(projectId)}members/`, signal);

export const addMember = (projectId: number, username: string, role: ProjectRole) =>
  apiRequest<Member>("POST", `${project(projectId)}members/`, { body: { username, role } });

export const changeMemberRole = (projectId: number, membershipId: number, role: ProjectRole) =>
  apiRequest<Member>("PATCH", `${project(projectId)}members/${membershipId}/`, {
    body: { role },
  });

export const removeMember = (projectId: number, membershipId: number) =>
  apiRequest<null>("DELETE", `${project(projectId)}members/${membershipId}/`);

export const fetchDocuments = (projectId: number, signal?: AbortSignal) =>
  fetchAllPages<LeadDocument>(`${project(projectId)}documents/?page_size=500`, signal);

export const assignDocument = (projectId: number, documentId: number, assignees: number[]) =>
  apiRequest<LeadDocument>("PATCH", `${project(projectId)}documents/${documentId}/`, {
    body: { assignees },
  });

/** Out of its iteration: the way to close an iteration without a document nobody submits. */
export const removeFromIteration = (projectId: number, documentId: number) =>
  apiRequest<LeadDocument>("PATCH", `${project(projectId)}documents/${documentId}/`, {
    body: { iteration: null },
  });

/** One document pair: answers with the import job to follow. */
export function uploadDocument(
  projectId: number,
  upload: { name: string; report: File; transcripts: File[] },
): Promise<Job> {
  const form = new FormData();
  form.append("name", upload.name);
  form.append("report", upload.report);
  for (const part of upload.transcripts) form.append("transcript", part);
  return apiRequest<Job>("POST", `${project(projectId)}documents/`, { body: form });
}

export const fetchJob = (projectId: number, jobId: number, signal?: AbortSignal) =>
  apiRequest<Job>("GET", `${project(projectId)}jobs/${jobId}/`, { signal });

export const cancelJob = (projectId: number, jobId: number) =>
  apiRequest<Job>("POST", `${project(projectId)}jobs/${jobId}/cancel/`);

export const fetchIterations = (projectId: number, signal?: AbortSignal) =>
  fetchAllPages<Iteration>(`${project(projectId)}iterations/`, signal);

export const fetchIteration = (projectId: number, iterationId: number, signal?: AbortSignal) =>
  apiRequest<IterationDetail>("GET", `${project(projectId)}iterations/${iterationId}/`, {
    signal,
  });

export const openIteration = (
  projectId: number,
  body: {
    name: string;
    documents: number[];
    assignments: { document: number; annotators: number[] }[];
  },
) => apiRequest<IterationDetail>("POST", `${project(projectId)}iterations/`, { body });

export const closeIteration = (
  projectId: number,
  iterationId: number,
  options: { tune: boolean; grid?: Record<string, unknown[]> },
) =>
  apiRequest<IterationDetail>("POST", `${project(projectId)}iterations/${iterationId}/close/`, {
    body: options,
  });

export const restartPreAlignment = (projectId: number, iterationId: number) =>
  apiRequest<IterationDetail>("POST", `${project(projectId)}iterations/${iterationId}/pre-align/`);

export const restartTuning = (projectId: number, iterationId: number) =>
  apiRequest<IterationDetail>("POST", `${project(projectId)}iterations/${iterationId}/tune/`, {
    body: {},
  });

/** The proposal (no choice), a candidate of the iteration's run, or any parameter set. */
export const promote = (
  projectId: number,
  iterationId: number,
  choice: { candidate: number } | { parameter_set: number } | Record<string, never>,
) =>
  apiRequest<{ promoted_parameter_set: number; name: string }>(
    "POST",
    `${project(projectId)}iterations/${iterationId}/promote/`,
    { body: choice },
  );

export const fetchParameterSets = (projectId: number, signal?: AbortSignal) =>
  fetchAllPages<ParameterSet>(`${project(projectId)}parameter-sets/`, signal);

export type CandidateOrdering =
  "rank" | "index" | "segment_accuracy" | "word_accuracy" | "window_diff" | "documents_evaluated";

export type CandidatePage = Page<Candidate> & { run: TuningBrief };

/** A page of a tuning run's candidates: the iteration's, or the project's latest run. */
export function fetchCandidates(
  projectId: number,
  query: { iteration?: number; ordering: string; page: number; pageSize: number },
  signal?: AbortSignal,
): Promise<CandidatePage> {
  const params = new URLSearchParams({
    ordering: query.ordering,
    page: String(query.page),
    page_size: String(query.pageSize),
  });
  if (query.iteration !== undefined) params.set("iteration", String(query.iteration));
  return apiRequest<CandidatePage>("GET", `${project(projectId)}dashboard/tuning/?${params}`, {
    signal,
  });
}
