/** The rating endpoints (docs/ratings.md). */
import { apiRequest } from "../api/client";
import type { Schema } from "../api/schema";
import type { RatingAnswer } from "./model";

export type RaterNext = Schema<"RaterNext">;
export type StudyResults = Schema<"StudyResults">;
export type StudyOutput = Schema<"StudyOutput">;

const studies = (projectId: number) => `projects/${projectId}/rating-studies/`;
const study = (projectId: number, studyId: number) => `${studies(projectId)}${studyId}/`;

export const fetchNext = (projectId: number, studyId: number, signal?: AbortSignal) =>
  apiRequest<RaterNext>("GET", `${study(projectId, studyId)}next/`, { signal });

export const rate = (
  projectId: number,
  studyId: number,
  assignment: number,
  answer: RatingAnswer,
  note: string,
) =>
  apiRequest<RaterNext>("POST", `${study(projectId, studyId)}ratings/`, {
    body: { assignment, answer, note },
  });

export const undoLast = (projectId: number, studyId: number) =>
  apiRequest<RaterNext>("POST", `${study(projectId, studyId)}undo/`);

export const fetchStudies = (projectId: number, signal?: AbortSignal) =>
  apiRequest<Schema<"PaginatedStudyOutputList">>("GET", studies(projectId), { signal });

export const fetchResults = (projectId: number, studyId: number, signal?: AbortSignal) =>
  apiRequest<StudyResults>("GET", `${study(projectId, studyId)}results/`, { signal });

export const fetchAssigned = (projectId: number, signal?: AbortSignal) =>
  apiRequest<Schema<"PaginatedRaterStudyList">>("GET", `${studies(projectId)}assigned/`, {
    signal,
  });

export type StudyCreateInput = Schema<"StudyCreateInput">;

export const fetchStudy = (projectId: number, studyId: number, signal?: AbortSignal) =>
  apiRequest<StudyOutput>("GET", study(projectId, studyId), { signal });

/** Fields left out get the server's default, or its 400 naming them. */
export const createStudy = (projectId: number, input: Partial<StudyCreateInput>) =>
  apiRequest<StudyOutput>("POST", studies(projectId), { body: input });
