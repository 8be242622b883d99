/**
 * The lead's side of the REST API: projects and members, uploads and their import jobs,
 * iterations, tuning candidates, promotion. Shapes follow docs/bootstrap.md.
 */
import { apiRequest, fetchAllPages } from "../api/client";
import type { ProjectRole } from "../api/documents";
import type { Schema } from "../api/schema";
import type { operations } from "../api/schema.gen";

export type ProjectDetail = Schema<"ProjectOutput">;
export type ProjectKind = Schema<"ProjectKindEnum">;
export type Member = Schema<"MembershipOutput">;
export type LeadDocument = Schema<"DocumentOutput">;
export type JobStatus = Schema<"JobStatusEnum">;
export type Job = Schema<"JobOutput">;
export type JobBrief = Schema<"JobBrief">;

export const FINISHED_JOB_STATUSES: ReadonlySet<JobStatus> = new Set([
  "succeeded",
  "failed",
  "cancelled",
]);

/** Documents that can join a batch: imported, and not failed or still importing. */
export const BATCHABLE_STATUSES: ReadonlySet<LeadDocument["status"]> = new Set([
  "imported",
  "pre_aligned",
  "in_annotation",
  "submitted",
]);

export type Candidate = Schema<"CandidateOutput">;
/** The engine's AlignmentParams as stored: nested sections of plain values. */
export type AlignmentParams = Schema<"AlignmentParams">;
export type TuningBrief = Schema<"TuningBrief">;
export type Distribution = Schema<"Distribution">;
export type AccuracyMetric = Schema<"AccuracyMetricEnum">;

/** The metrics in the order the pages show them. */
export const ACCURACY_METRICS = [
  "human_turn_accuracy",
  "human_word_accuracy",
  "segment_accuracy",
  "word_accuracy",
  "windowdiff",
] as const satisfies readonly AccuracyMetric[];

export type IterationStatus = Schema<"IterationStatusEnum">;
export type StartingParameters = Schema<"StartingParametersEnum">;
export type Iteration = Schema<"IterationOutput">;
export type BatchAnnotation = Schema<"BatchAnnotation">;
export type AccuracyRecord = Schema<"Record">;
export type BatchDocument = Schema<"BatchDocument">;
export type IterationDetail = Schema<"IterationDetail">;
export type ParameterSet = Schema<"ParameterSetListApiOutput">;

const project = (projectId: number) => `projects/${projectId}/`;

export const fetchProject = (projectId: number, signal?: AbortSignal) =>
  apiRequest<ProjectDetail>("GET", project(projectId), { signal });

export const createProject = (fields: {
  name: string;
  description: string;
  kind: ProjectKind;
  language?: string;
}) => apiRequest<ProjectDetail>("POST", "projects/", { body: fields });

export const updateProject = (
  projectId: number,
  fields: { name: string; description: string; settings?: ProjectDetail["settings"] },
) => apiRequest<ProjectDetail>("PATCH", project(projectId), { body: fields });

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

/** The documents whose annotators disagree and that wait for a lead or curator to adjudicate. */
export const fetchNeedsAdjudication = async (projectId: number, signal?: AbortSignal) =>
  new Set(
    (
      await apiRequest<Schema<"NeedsAdjudicationOutput">>(
        "GET",
        `${project(projectId)}needs-adjudication/`,
        { signal },
      )
    ).documents,
  );

export const assignDocument = (projectId: number, documentId: number, assignees: number[]) =>
  apiRequest<LeadDocument>("PATCH", `${project(projectId)}documents/${documentId}/`, {
    body: { assignees },
  });

/** Out of its iteration: the way to close an iteration without a document nobody submits. */
export const deleteDocument = (projectId: number, documentId: number) =>
  apiRequest<void>("DELETE", `${project(projectId)}documents/${documentId}/`);

export const removeFromIteration = (projectId: number, documentId: number) =>
  apiRequest<LeadDocument>("PATCH", `${project(projectId)}documents/${documentId}/`, {
    body: { iteration: null },
  });

/** One document pair: answers with the import job to follow. */
export function uploadDocument(
  projectId: number,
  upload: { name: string; report: File; transcripts: File[]; audio?: File | null },
): Promise<Job> {
  const form = new FormData();
  form.append("name", upload.name);
  form.append("report", upload.report);
  for (const part of upload.transcripts) form.append("transcript", part);
  if (upload.audio) form.append("audio", upload.audio);
  return apiRequest<Job>("POST", `${project(projectId)}documents/`, { body: form });
}

/** Adds or replaces the document's recording. */
export function putAudio(projectId: number, documentId: number, audio: File) {
  const form = new FormData();
  form.append("audio", audio);
  return apiRequest<Schema<"AudioOutput">>(
    "PUT",
    `${project(projectId)}documents/${documentId}/audio/`,
    { body: form },
  );
}

export const deleteAudio = (projectId: number, documentId: number) =>
  apiRequest<void>("DELETE", `${project(projectId)}documents/${documentId}/audio/`);

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

export const openIteration = (projectId: number, body: Schema<"IterationListApiInput">) =>
  apiRequest<IterationDetail>("POST", `${project(projectId)}iterations/`, { body });

export type BatchProposal = Schema<"BatchProposalApiOutput">;
export type SelectionPolicy = Schema<"PolicyEnum">;

/** Tandem's proposal of the next batch by `policy`: the documents and why each. */
export const proposeBatch = (projectId: number, policy: SelectionPolicy, size: number) =>
  apiRequest<BatchProposal>(
    "GET",
    `${project(projectId)}iterations/proposal/?${new URLSearchParams({ policy, size: String(size) })}`,
  );

export const closeIteration = (
  projectId: number,
  iterationId: number,
  options: Schema<"IterationCloseApiInput">,
) =>
  apiRequest<IterationDetail>("POST", `${project(projectId)}iterations/${iterationId}/close/`, {
    body: options,
  });

export const cancelIteration = (projectId: number, iterationId: number) =>
  apiRequest<IterationDetail>("POST", `${project(projectId)}iterations/${iterationId}/cancel/`);

export const addToIteration = (
  projectId: number,
  iterationId: number,
  body: Schema<"IterationDocumentsApiInput">,
) =>
  apiRequest<IterationDetail>("POST", `${project(projectId)}iterations/${iterationId}/documents/`, {
    body,
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
  apiRequest<Schema<"IterationPromoteApiOutput">>(
    "POST",
    `${project(projectId)}iterations/${iterationId}/promote/`,
    { body: choice },
  );

export const fetchParameterSets = (projectId: number, signal?: AbortSignal) =>
  fetchAllPages<ParameterSet>(`${project(projectId)}parameter-sets/`, signal);

/** An aligner and each setting a parameter set for it may hold, from the engine. */
export type Aligner = Schema<"AlignerOutput">;
export type AlignerSetting = Schema<"AlignerSettingOutput">;

export const fetchAligners = (signal?: AbortSignal): Promise<Aligner[]> =>
  apiRequest<Aligner[]>("GET", "aligners/", { signal });

/** The scores the candidate table sorts by (the API also takes each with `-`). */
export type CandidateOrdering = Exclude<
  NonNullable<
    NonNullable<operations["projects_dashboard_tuning_retrieve"]["parameters"]["query"]>["ordering"]
  >,
  `-${string}`
>;

export type CandidatePage = Schema<"TuningDashboardApiOutput">;

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

/** An iteration's review threshold and what it, auto and a previewed one imply. */
export type IterationReview = Schema<"IterationReviewApiOutput">;
export type ReviewPlan = Schema<"ReviewPlan">;

export const fetchIterationReview = (
  projectId: number,
  iterationId: number,
  preview: number | null,
  signal?: AbortSignal,
) =>
  apiRequest<IterationReview>(
    "GET",
    `${project(projectId)}iterations/${iterationId}/review/${preview === null ? "" : `?threshold=${preview}`}`,
    { signal },
  );

/** Sets the threshold; null is auto. */
export const setReviewThreshold = (
  projectId: number,
  iterationId: number,
  threshold: number | null,
) =>
  apiRequest<IterationReview>("PUT", `${project(projectId)}iterations/${iterationId}/review/`, {
    body: { threshold },
  });
