/** The rating endpoints (docs/ratings.md). */
import { apiRequest } from "../api/client";
import type { Schema } from "../api/schema";
import type { RatingAnswer } from "./model";

export type RaterNext = Schema<"RaterNext">;
export type StudyResults = Schema<"StudyResults">;
export type StudyOutput = Schema<"StudyOutput">;

const projectIds = (projectId: number) => ({ project_id: projectId });
const studyIds = (projectId: number, studyId: number) => ({
  project_id: projectId,
  study_id: studyId,
});

export const fetchNext = (projectId: number, studyId: number, signal?: AbortSignal) =>
  apiRequest("GET", "projects/{project_id}/rating-studies/{study_id}/next/", {
    path: studyIds(projectId, studyId),
    signal,
  });

export const rate = (
  projectId: number,
  studyId: number,
  assignment: number,
  answer: RatingAnswer,
  note: string,
) =>
  apiRequest("POST", "projects/{project_id}/rating-studies/{study_id}/ratings/", {
    path: studyIds(projectId, studyId),
    body: { assignment, answer, note },
  });

export const undoLast = (projectId: number, studyId: number) =>
  apiRequest("POST", "projects/{project_id}/rating-studies/{study_id}/undo/", {
    path: studyIds(projectId, studyId),
  });

export const fetchStudies = (projectId: number, signal?: AbortSignal) =>
  apiRequest("GET", "projects/{project_id}/rating-studies/", {
    path: projectIds(projectId),
    signal,
  });

export const fetchResults = (projectId: number, studyId: number, signal?: AbortSignal) =>
  apiRequest("GET", "projects/{project_id}/rating-studies/{study_id}/results/", {
    path: studyIds(projectId, studyId),
    signal,
  });

export const fetchAssigned = (projectId: number, signal?: AbortSignal) =>
  apiRequest("GET", "projects/{project_id}/rating-studies/assigned/", {
    path: projectIds(projectId),
    signal,
  });

export type StudyCreateInput = Schema<"StudyCreateInput">;

export const fetchStudy = (projectId: number, studyId: number, signal?: AbortSignal) =>
  apiRequest("GET", "projects/{project_id}/rating-studies/{study_id}/", {
    path: studyIds(projectId, studyId),
    signal,
  });

/** Fields left out get the server's default, or its 400 naming them: the form sends what was
 * filled in and shows the server's messages by field, hence the cast. */
export const createStudy = (projectId: number, input: Partial<StudyCreateInput>) =>
  apiRequest("POST", "projects/{project_id}/rating-studies/", {
    path: projectIds(projectId),
    body: input as StudyCreateInput,
  });
