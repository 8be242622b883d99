/**
 * The folders under src/ import each other in one direction only, so each can be read (and
 * changed) knowing only the folders below it: docs/architecture.md gives the order. A loop
 * fails here, named file by file.
 */
import { describe, expect, it } from "vitest";

const sources = import.meta.glob<string>("./**/*.{ts,tsx}", {
  query: "?raw",
  import: "default",
  eager: true,
});

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.[^"']*)["']/g;

/** The folder of a path given as its segments below src/: "." for the files at the top
 * (App.tsx, main.tsx, routes.ts). */
const folderOf = (path: string[]) => (path.length > 1 ? path[0]! : ".");

/** Where `specifier` points from `file`, as segments below src/; null outside src/. */
function target(file: string[], specifier: string): string[] | null {
  const path = file.slice(0, -1);
  for (const part of specifier.split("/")) {
    if (part === "..") {
      if (path.pop() === undefined) return null;
    } else if (part !== ".") path.push(part);
  }
  return path;
}

/** Each import from one folder into another, as `folder -> folder: file imports specifier`. */
function folderImports(): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  for (const [name, text] of Object.entries(sources)) {
    const file = name.split("/").slice(1);
    const from = folderOf(file);
    for (const [, specifier] of text.matchAll(IMPORT)) {
      const path = target(file, specifier!);
      const to = path && folderOf(path);
      if (!to || to === from) continue;
      const targets = edges.get(from) ?? new Map<string, string>();
      if (!targets.has(to)) targets.set(to, `${file.join("/")} imports ${specifier}`);
      edges.set(from, targets);
    }
  }
  return edges;
}

/** A loop in the folder graph, as the imports that make it; null when there is none. */
function findLoop(edges: Map<string, Map<string, string>>): string[] | null {
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (folder: string): string[] | null => {
    const start = path.indexOf(folder);
    if (start >= 0) {
      const loop = [...path.slice(start), folder];
      return loop
        .slice(1)
        .map((to, index) => `${loop[index]} -> ${to}: ${edges.get(loop[index]!)!.get(to)}`);
    }
    if (done.has(folder)) return null;
    path.push(folder);
    for (const next of edges.get(folder)?.keys() ?? []) {
      const loop = visit(next);
      if (loop) return loop;
    }
    path.pop();
    done.add(folder);
    return null;
  };
  for (const folder of edges.keys()) {
    const loop = visit(folder);
    if (loop) return loop;
  }
  return null;
}

describe("the folders under src/", () => {
  it("are read as the import graph sees them", () => {
    const edges = folderImports();
    expect(edges.get(".")?.has("editor")).toBe(true);
    expect(
      findLoop(
        new Map([
          ["a", new Map([["b", "x"]])],
          ["b", new Map([["a", "y"]])],
        ]),
      ),
    ).toEqual(["a -> b: x", "b -> a: y"]);
  });

  it("import each other without a loop", () => {
    const loop = findLoop(folderImports());
    expect(loop, `the folders import each other in a loop:\n  ${loop?.join("\n  ")}`).toBeNull();
  });
});
