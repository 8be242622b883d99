/** The dashboards' endpoints: one chart's data each (docs/bootstrap.md, "Dashboards"). */
import { apiRequest } from "./client";
import type { Schema } from "./schema";

export type DocumentAccuracy = Schema<"DocumentAccuracy">;
export type IterationAccuracy = Schema<"AccuracyDashboardApiOutputIteration">;
export type EffortRow = Schema<"EffortDashboardApiOutputRow">;
export type DocumentEffort = Schema<"DocumentEffortDashboardApiOutputIterationDocument">;
export type CorpusCounts = Schema<"CorpusCounts">;
export type CorpusGrowth = Schema<"CorpusDashboardApiOutput">;

/** Agreement among `annotators` (docs/agreement.md): percentages, but kappa and alpha (-1 to
 * 1); null when undefined. */
export type AgreementFigures = Schema<"AgreementFigures">;
export type AgreementMeasures = Schema<"AgreementMeasures">;
/** An annotator's submissions, time and agreement with the adjudicated gold in an iteration. */
export type AnnotatorQuality = Schema<"AnnotatorQualityRow">;
export type AgreementMeasure = keyof Schema<"AgreementSummary">;
export type DocumentAgreement = Schema<"DocumentAgreement">;
export type IterationAgreement = Schema<"AgreementIteration">;

const projectIds = (projectId: number) => ({ project_id: projectId });

export const fetchAccuracy = (projectId: number, signal?: AbortSignal) =>
  apiRequest("GET", "projects/{project_id}/dashboard/accuracy/", {
    path: projectIds(projectId),
    signal,
  });

export const fetchEffort = (projectId: number, signal?: AbortSignal) =>
  apiRequest("GET", "projects/{project_id}/dashboard/effort/", {
    path: projectIds(projectId),
    signal,
  });

/** Each document of the iteration with each annotator's effort on it. */
export const fetchDocumentEffort = (projectId: number, iterationId: number, signal?: AbortSignal) =>
  apiRequest("GET", "projects/{project_id}/dashboard/effort/documents/", {
    path: projectIds(projectId),
    query: { iteration: iterationId },
    signal,
  });

export const fetchCorpus = (projectId: number, signal?: AbortSignal) =>
  apiRequest("GET", "projects/{project_id}/dashboard/corpus/", {
    path: projectIds(projectId),
    signal,
  });

export const fetchActiveJobs = (projectId: number, signal?: AbortSignal) =>
  apiRequest("GET", "projects/{project_id}/dashboard/jobs/", {
    path: projectIds(projectId),
    signal,
  });

export const fetchAgreement = (projectId: number, signal?: AbortSignal) =>
  apiRequest("GET", "projects/{project_id}/dashboard/agreement/", {
    path: projectIds(projectId),
    signal,
  });

export const fetchAnnotatorQuality = (projectId: number, signal?: AbortSignal) =>
  apiRequest("GET", "projects/{project_id}/dashboard/annotators/", {
    path: projectIds(projectId),
    signal,
  });

export const fetchSalience = (projectId: number, signal?: AbortSignal) =>
  apiRequest("GET", "projects/{project_id}/dashboard/salience/", {
    path: projectIds(projectId),
    signal,
  });
