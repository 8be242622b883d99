/** The app's pages by path: the annotator's here, the help's, the rater's and the lead's
 * (lead/routes.ts) from their folders. */
import { parseHelpPath } from "./help/api";
import { parseLeadRoute, type LeadRoute } from "./lead/routes";
import { parseRatingPath } from "./rating/model";

export type Route =
  | { name: "documents"; projectId?: number }
  | { name: "editor"; projectId: number; documentId: number }
  | { name: "adjudication"; projectId: number; documentId: number }
  | { name: "tokens" }
  | { name: "rating"; projectId: number; studyId: number }
  | { name: "help"; page: string | null }
  | LeadRoute
  | { name: "notFound" };

const EDITOR_PATH = /^\/projects\/(\d+)\/documents\/(\d+)\/?$/;
const PROJECT_PATH = /^\/projects\/(\d+)\/?$/;
const TOKENS_PATH = /^\/tokens\/?$/;
const ADJUDICATION_PATH = /^\/projects\/(\d+)\/documents\/(\d+)\/adjudication\/?$/;

export function parseRoute(pathname: string): Route {
  if (pathname === "/" || pathname === "") return { name: "documents" };
  if (TOKENS_PATH.test(pathname)) return { name: "tokens" };
  const project = PROJECT_PATH.exec(pathname);
  if (project) return { name: "documents", projectId: Number(project[1]) };
  const editor = EDITOR_PATH.exec(pathname);
  if (editor)
    return { name: "editor", projectId: Number(editor[1]), documentId: Number(editor[2]) };
  const adjudication = ADJUDICATION_PATH.exec(pathname);
  if (adjudication) {
    const [, projectId, documentId] = adjudication.map(Number);
    return { name: "adjudication", projectId: projectId!, documentId: documentId! };
  }
  const help = parseHelpPath(pathname);
  if (help !== undefined) return { name: "help", page: help };
  const rating = parseRatingPath(pathname);
  if (rating) return { name: "rating", ...rating };
  return parseLeadRoute(pathname) ?? { name: "notFound" };
}
