import { fetchAllPages } from "./client";
import type { DocumentStatus } from "./annotation";

export type ProjectRole = "lead" | "annotator";

export interface Project {
  id: number;
  name: string;
  description: string;
  role: ProjectRole | null;
}

export interface DocumentSummary {
  id: number;
  name: string;
  status: DocumentStatus;
  segment_count: number;
  turn_count: number;
  word_count: number;
  updated_at: string;
}

export function fetchProjects(signal?: AbortSignal): Promise<Project[]> {
  return fetchAllPages<Project>("projects/", signal);
}

/** The documents assigned to the caller in one project. */
export function fetchMyDocuments(
  projectId: number,
  signal?: AbortSignal,
): Promise<DocumentSummary[]> {
  return fetchAllPages<DocumentSummary>(`projects/${projectId}/documents/?assignee=me`, signal);
}
