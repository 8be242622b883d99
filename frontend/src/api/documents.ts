import { fetchAllPages } from "./client";
import type { Schema } from "./schema";

export type ProjectRole = Schema<"ProjectRoleEnum">;
export type Project = Schema<"ProjectOutput">;
export type DocumentSummary = Schema<"DocumentOutput">;

export function fetchProjects(signal?: AbortSignal): Promise<Project[]> {
  return fetchAllPages("projects/", { signal });
}

/** The documents assigned to the caller in one project. */
export function fetchMyDocuments(
  projectId: number,
  signal?: AbortSignal,
): Promise<DocumentSummary[]> {
  return fetchAllPages("projects/{project_id}/documents/", {
    path: { project_id: projectId },
    query: { assignee: "me" },
    signal,
  });
}
