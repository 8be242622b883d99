/** The dashboards' endpoints: one chart's data each (docs/bootstrap.md, "Dashboards"). */
import { apiRequest } from "../api/client";
import type { Schema } from "../api/schema";

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

const dashboard = (projectId: number, chart: string) => `projects/${projectId}/dashboard/${chart}/`;

export const fetchAccuracy = (projectId: number, signal?: AbortSignal) =>
  apiRequest<Schema<"AccuracyDashboardApiOutput">>("GET", dashboard(projectId, "accuracy"), {
    signal,
  });

export const fetchEffort = (projectId: number, signal?: AbortSignal) =>
  apiRequest<Schema<"EffortDashboardApiOutput">>("GET", dashboard(projectId, "effort"), { signal });

/** Each document of the iteration with each annotator's effort on it. */
export const fetchDocumentEffort = (projectId: number, iterationId: number, signal?: AbortSignal) =>
  apiRequest<Schema<"DocumentEffortDashboardApiOutput">>(
    "GET",
    `${dashboard(projectId, "effort/documents")}?iteration=${iterationId}`,
    { signal },
  );

export const fetchCorpus = (projectId: number, signal?: AbortSignal) =>
  apiRequest<CorpusGrowth>("GET", dashboard(projectId, "corpus"), { signal });

export const fetchActiveJobs = (projectId: number, signal?: AbortSignal) =>
  apiRequest<Schema<"JobsDashboardApiOutput">>("GET", dashboard(projectId, "jobs"), { signal });

export const fetchAgreement = (projectId: number, signal?: AbortSignal) =>
  apiRequest<Schema<"AgreementDashboardApiOutput">>("GET", dashboard(projectId, "agreement"), {
    signal,
  });

export const fetchAnnotatorQuality = (projectId: number, signal?: AbortSignal) =>
  apiRequest<Schema<"AnnotatorQualityDashboardApiOutput">>(
    "GET",
    dashboard(projectId, "annotators"),
    { signal },
  );
