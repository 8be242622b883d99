/** The dashboards' endpoints: one chart's data each (docs/bootstrap.md, "Dashboards"). */
import { apiRequest } from "../api/client";
import type { AccuracyMetric, Distribution, IterationStatus, Job } from "../lead/api";

export type DocumentAccuracy = { document: number; name: string } & Record<AccuracyMetric, number>;

export interface IterationAccuracy {
  iteration: number;
  number: number;
  status: IterationStatus;
  documents: DocumentAccuracy[];
  summary: Record<AccuracyMetric, Distribution>;
}

export interface EffortRow {
  iteration: number;
  number: number;
  annotator: number;
  username: string;
  document_count: number;
  submitted_count: number;
  turns_changed: number;
  seconds_spent: number;
  turns_changed_per_document: number;
  seconds_per_document: number;
}

export interface CorpusCounts {
  gold_documents: number;
  gold_pairs: number;
  automatic_documents: number;
  trusted_pairs: number;
}

export interface CorpusGrowth {
  iterations: (CorpusCounts & { iteration: number; number: number; closed_at: string })[];
  now: CorpusCounts;
}

const dashboard = (projectId: number, chart: string) => `projects/${projectId}/dashboard/${chart}/`;

export const fetchAccuracy = (projectId: number, signal?: AbortSignal) =>
  apiRequest<{ metrics: AccuracyMetric[]; iterations: IterationAccuracy[] }>(
    "GET",
    dashboard(projectId, "accuracy"),
    { signal },
  );

export const fetchEffort = (projectId: number, signal?: AbortSignal) =>
  apiRequest<{ rows: EffortRow[] }>("GET", dashboard(projectId, "effort"), { signal });

export const fetchCorpus = (projectId: number, signal?: AbortSignal) =>
  apiRequest<CorpusGrowth>("GET", dashboard(projectId, "corpus"), { signal });

export const fetchActiveJobs = (projectId: number, signal?: AbortSignal) =>
  apiRequest<{ jobs: Job[] }>("GET", dashboard(projectId, "jobs"), { signal });
