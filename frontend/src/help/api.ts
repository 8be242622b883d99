/** The help pages: docs/*.md rendered by the server (backend/core/help_pages.py). */
import { apiRequest } from "../api/client";
import type { Schema } from "../api/schema";

export type HelpIndex = Schema<"HelpIndex">;
export type HelpPage = Schema<"HelpPage">;
export type HelpSearch = Schema<"HelpSearch">;

export const fetchHelpIndex = (signal?: AbortSignal) => apiRequest("GET", "help/", { signal });

export const fetchHelpPage = (name: string, signal?: AbortSignal) =>
  apiRequest("GET", "help/{name}/", { path: { name }, signal });

export const searchHelp = (query: string, signal?: AbortSignal) =>
  apiRequest("GET", "help/search/", { query: { q: query }, signal });

export const HELP_HOME = "/help";

export function helpPath(name: string, anchor = ""): string {
  return `${HELP_HOME}/${name}${anchor ? `#${anchor}` : ""}`;
}

const HELP_PATH = /^\/help(?:\/([a-z0-9-]+))?\/?$/;

/** The help page a path names: null for the index, undefined when it is no help path. */
export function parseHelpPath(pathname: string): string | null | undefined {
  const match = HELP_PATH.exec(pathname);
  if (!match) return undefined;
  return match[1] ?? null;
}

/** The in-app address a click on a rendered page's link goes to, or null when the browser
 * should follow it itself (another site, an anchor on the same page, a modified click). */
export function inAppTarget(
  href: string | null,
  event: { button: number; metaKey: boolean; ctrlKey: boolean; shiftKey: boolean; altKey: boolean },
): string | null {
  if (!href || event.button !== 0) return null;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  return href.startsWith(`${HELP_HOME}/`) ? href : null;
}
