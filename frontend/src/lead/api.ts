/**
 * The lead's side of the REST API: projects and members, uploads and their import jobs,
 * iterations, tuning candidates, promotion. Shapes follow docs/bootstrap.md.
 */
import { documentIds } from "../api/annotation";
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
export type AccuracyMetric = Schema<"AccuracyMetricEnum">;

/** The metrics in the order the pages show them. */
export const ACCURACY_METRICS = [
  "human_turn_accuracy",
  "human_word_accuracy",
  "segment_accuracy",
  "word_accuracy",
  "windowdiff",
] as const satisfies readonly AccuracyMetric[];

export type StartingParameters = Schema<"StartingParametersEnum">;
export type Iteration = Schema<"IterationOutput">;
export type BatchAnnotation = Schema<"BatchAnnotation">;
export type BatchDocument = Schema<"BatchDocument">;
export type IterationDetail = Schema<"IterationDetail">;

const projectIds = (projectId: number) => ({ project_id: projectId });
const iterationIds = (projectId: number, iterationId: number) => ({
  project_id: projectId,
  iteration_id: iterationId,
});

export const fetchProject = (projectId: number, signal?: AbortSignal) =>
  apiRequest("GET", "projects/{project_id}/", { path: projectIds(projectId), signal });

export const createProject = (fields: Schema<"ProjectInput">) =>
  apiRequest("POST", "projects/", { body: fields });

export const updateProject = (
  projectId: number,
  fields: Schema<"PatchedProjectDetailApiUpdateInput">,
) => apiRequest("PATCH", "projects/{project_id}/", { path: projectIds(projectId), body: fields });

export const fetchMembers = (projectId: number, signal?: AbortSignal) =>
  fetchAllPages("projects/{project_id}/members/", { path: projectIds(projectId), signal });

export const addMember = (projectId: number, username: string, role: ProjectRole) =>
  apiRequest("POST", "projects/{project_id}/members/", {
    path: projectIds(projectId),
    body: { username, role },
  });

export const changeMemberRole = (projectId: number, membershipId: number, role: ProjectRole) =>
  apiRequest("PATCH", "projects/{project_id}/members/{membership_id}/", {
    path: { project_id: projectId, membership_id: membershipId },
    body: { role },
  });

export const removeMember = (projectId: number, membershipId: number) =>
  apiRequest("DELETE", "projects/{project_id}/members/{membership_id}/", {
    path: { project_id: projectId, membership_id: membershipId },
  });

export const fetchDocuments = (projectId: number, signal?: AbortSignal) =>
  fetchAllPages("projects/{project_id}/documents/", {
    path: projectIds(projectId),
    query: { page_size: 500 },
    signal,
  });

/** The documents whose annotators disagree and that wait for a lead or curator to adjudicate. */
export const fetchNeedsAdjudication = async (projectId: number, signal?: AbortSignal) =>
  new Set(
    (
      await apiRequest("GET", "projects/{project_id}/needs-adjudication/", {
        path: projectIds(projectId),
        signal,
      })
    ).documents,
  );

export const assignDocument = (projectId: number, documentId: number, assignees: number[]) =>
  apiRequest("PATCH", "projects/{project_id}/documents/{document_id}/", {
    path: documentIds(projectId, documentId),
    body: { assignees },
  });

/** Out of its iteration: the way to close an iteration without a document nobody submits. */
export const deleteDocument = (projectId: number, documentId: number) =>
  apiRequest("DELETE", "projects/{project_id}/documents/{document_id}/", {
    path: documentIds(projectId, documentId),
  });

export const removeFromIteration = (projectId: number, documentId: number) =>
  apiRequest("PATCH", "projects/{project_id}/documents/{document_id}/", {
    path: documentIds(projectId, documentId),
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
  return apiRequest("POST", "projects/{project_id}/documents/", {
    path: projectIds(projectId),
    body: form,
  });
}

/** Adds or replaces the document's recording. */
export function putAudio(projectId: number, documentId: number, audio: File) {
  const form = new FormData();
  form.append("audio", audio);
  return apiRequest("PUT", "projects/{project_id}/documents/{document_id}/audio/", {
    path: documentIds(projectId, documentId),
    body: form,
  });
}

export const deleteAudio = (projectId: number, documentId: number) =>
  apiRequest("DELETE", "projects/{project_id}/documents/{document_id}/audio/", {
    path: documentIds(projectId, documentId),
  });

export const fetchJob = (projectId: number, jobId: number, signal?: AbortSignal) =>
  apiRequest("GET", "projects/{project_id}/jobs/{job_id}/", {
    path: { project_id: projectId, job_id: jobId },
    signal,
  });

export const cancelJob = (projectId: number, jobId: number) =>
  apiRequest("POST", "projects/{project_id}/jobs/{job_id}/cancel/", {
    path: { project_id: projectId, job_id: jobId },
  });

export const fetchIterations = (projectId: number, signal?: AbortSignal) =>
  fetchAllPages("projects/{project_id}/iterations/", { path: projectIds(projectId), signal });

export const fetchIteration = (projectId: number, iterationId: number, signal?: AbortSignal) =>
  apiRequest("GET", "projects/{project_id}/iterations/{iteration_id}/", {
    path: iterationIds(projectId, iterationId),
    signal,
  });

export const openIteration = (projectId: number, body: Schema<"IterationListApiInput">) =>
  apiRequest("POST", "projects/{project_id}/iterations/", { path: projectIds(projectId), body });

export type BatchProposal = Schema<"BatchProposalApiOutput">;
export type SelectionPolicy = Schema<"PolicyEnum">;

/** Tandem's proposal of the next batch by `policy`: the documents and why each. */
export const proposeBatch = (projectId: number, policy: SelectionPolicy, size: number) =>
  apiRequest("GET", "projects/{project_id}/iterations/proposal/", {
    path: projectIds(projectId),
    query: { policy, size },
  });

export const closeIteration = (
  projectId: number,
  iterationId: number,
  options: Schema<"IterationCloseApiInput">,
) =>
  apiRequest("POST", "projects/{project_id}/iterations/{iteration_id}/close/", {
    path: iterationIds(projectId, iterationId),
    body: options,
  });

export const cancelIteration = (projectId: number, iterationId: number) =>
  apiRequest("POST", "projects/{project_id}/iterations/{iteration_id}/cancel/", {
    path: iterationIds(projectId, iterationId),
  });

export const addToIteration = (
  projectId: number,
  iterationId: number,
  body: Schema<"IterationDocumentsApiInput">,
) =>
  apiRequest("POST", "projects/{project_id}/iterations/{iteration_id}/documents/", {
    path: iterationIds(projectId, iterationId),
    body,
  });

export const restartPreAlignment = (projectId: number, iterationId: number) =>
  apiRequest("POST", "projects/{project_id}/iterations/{iteration_id}/pre-align/", {
    path: iterationIds(projectId, iterationId),
  });

export const restartTuning = (projectId: number, iterationId: number) =>
  apiRequest("POST", "projects/{project_id}/iterations/{iteration_id}/tune/", {
    path: iterationIds(projectId, iterationId),
    body: {},
  });

/** The proposal (no choice), a candidate of the iteration's run, or any parameter set. */
export const promote = (
  projectId: number,
  iterationId: number,
  choice: { candidate: number } | { parameter_set: number } | Record<string, never>,
) =>
  apiRequest("POST", "projects/{project_id}/iterations/{iteration_id}/promote/", {
    path: iterationIds(projectId, iterationId),
    body: choice,
  });

export const fetchParameterSets = (projectId: number, signal?: AbortSignal) =>
  fetchAllPages("projects/{project_id}/parameter-sets/", { path: projectIds(projectId), signal });

/** An aligner and each setting a parameter set for it may hold, from the engine. */
export type Aligner = Schema<"AlignerOutput">;
export type AlignerSetting = Schema<"AlignerSettingOutput">;

export const fetchAligners = (signal?: AbortSignal) => apiRequest("GET", "aligners/", { signal });

type CandidateQuery = NonNullable<
  operations["projects_dashboard_tuning_retrieve"]["parameters"]["query"]
>;

/** A score to sort the candidates by, best first (`-score`: worst first). */
export type CandidateSort = NonNullable<CandidateQuery["ordering"]>;
/** The scores the candidate table sorts by. */
export type CandidateOrdering = Exclude<CandidateSort, `-${string}`>;

export type CandidatePage = Schema<"TuningDashboardApiOutput">;

/** A page of a tuning run's candidates: the iteration's, or the project's latest run. */
export function fetchCandidates(
  projectId: number,
  query: CandidateQuery,
  signal?: AbortSignal,
): Promise<CandidatePage> {
  return apiRequest("GET", "projects/{project_id}/dashboard/tuning/", {
    path: projectIds(projectId),
    query,
    signal,
  });
}

export type ReviewPlan = Schema<"ReviewPlan">;
export type AfterReview = Schema<"AfterReview">;
export type Calibrations = Schema<"Calibrations">;
export type SpotCheckPrecision = Schema<"SpotCheckPrecision">;

/** The review plans, previewing a threshold or the lowest that meets a target residual
 * error (not both). */
export const fetchIterationReview = (
  projectId: number,
  iterationId: number,
  preview: { threshold?: number; target?: number },
  signal?: AbortSignal,
) =>
  apiRequest("GET", "projects/{project_id}/iterations/{iteration_id}/review/", {
    path: iterationIds(projectId, iterationId),
    query: preview,
    signal,
  });

/** Sets the threshold; null is auto. */
export const setReviewThreshold = (
  projectId: number,
  iterationId: number,
  threshold: number | null,
) =>
  apiRequest("PUT", "projects/{project_id}/iterations/{iteration_id}/review/", {
    path: iterationIds(projectId, iterationId),
    body: { threshold },
  });

/** Sets the spot check's share of the turns left unread after review; null turns it off. */
export const setSpotCheck = (projectId: number, iterationId: number, share: number | null) =>
  apiRequest("PUT", "projects/{project_id}/iterations/{iteration_id}/review/", {
    path: iterationIds(projectId, iterationId),
    body: { spot_check: share },
  });
