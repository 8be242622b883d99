/** The lead's pages live under /lead/, so one prefix tells them from the annotator's. */

export type LeadSection =
  "overview" | "documents" | "iterations" | "dashboard" | "exports" | "ratings";

export type LeadRoute =
  | { name: "leadProjects" }
  | { name: "leadProject"; projectId: number; section: LeadSection }
  | { name: "leadIteration"; projectId: number; iterationId: number }
  | { name: "leadStudy"; projectId: number; studyId: number };

const PROJECTS = /^\/lead\/?$/;
const PROJECT =
  /^\/lead\/projects\/(\d+)(?:\/(documents|iterations|dashboard|exports|ratings))?\/?$/;
const ITERATION = /^\/lead\/projects\/(\d+)\/iterations\/(\d+)\/?$/;
const STUDY = /^\/lead\/projects\/(\d+)\/ratings\/(\d+)\/?$/;

export function parseLeadRoute(pathname: string): LeadRoute | null {
  if (PROJECTS.test(pathname)) return { name: "leadProjects" };
  const project = PROJECT.exec(pathname);
  if (project) {
    const section = (project[2] ?? "overview") as LeadSection;
    return { name: "leadProject", projectId: Number(project[1]), section };
  }
  const iteration = ITERATION.exec(pathname);
  if (iteration) {
    return {
      name: "leadIteration",
      projectId: Number(iteration[1]),
      iterationId: Number(iteration[2]),
    };
  }
  const study = STUDY.exec(pathname);
  if (study) {
    return { name: "leadStudy", projectId: Number(study[1]), studyId: Number(study[2]) };
  }
  return null;
}

export const LEAD_HOME = "/lead";

export function leadProjectPath(projectId: number, section: LeadSection = "overview"): string {
  const base = `/lead/projects/${projectId}`;
  return section === "overview" ? base : `${base}/${section}`;
}

export function iterationPath(projectId: number, iterationId: number): string {
  return `/lead/projects/${projectId}/iterations/${iterationId}`;
}

/** A rating study's results, for its lead (the rater's page is `ratingPath`). */
export function studyResultsPath(projectId: number, studyId: number): string {
  return `/lead/projects/${projectId}/ratings/${studyId}`;
}
