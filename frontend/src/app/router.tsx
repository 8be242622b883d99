/**
 * A client-side router small enough to read at a glance: a handful of pages do not need a
 * library (the lead's are parsed in lead/routes.ts). Links push history entries; everything else reads the current path.
 */
import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from "react";
import { parseHelpPath } from "../help/api";
import { parseLeadRoute, type LeadRoute } from "../lead/routes";
import { parseRatingPath } from "../rating/model";

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

export function editorPath(projectId: number, documentId: number): string {
  return `/projects/${projectId}/documents/${documentId}`;
}

const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener("popstate", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("popstate", listener);
  };
}

export function navigate(path: string): void {
  if (path === window.location.pathname) return;
  window.history.pushState(null, "", path);
  listeners.forEach((listener) => listener());
}

export function usePathname(): string {
  return useSyncExternalStore(subscribe, () => window.location.pathname);
}

/** An ordinary link (open in a new tab still works) that navigates in place on a plain click. */
export function Link({
  href,
  onClick,
  ...props
}: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };
  return <a href={href} onClick={handleClick} {...props} />;
}
