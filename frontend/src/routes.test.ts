import { describe, expect, it } from "vitest";
import { editorPath } from "./app/router";
import { parseRoute } from "./routes";

describe("parseRoute", () => {
  it("knows the document list, a project's documents and the editor", () => {
    expect(parseRoute("/")).toEqual({ name: "documents" });
    expect(parseRoute("/projects/3")).toEqual({ name: "documents", projectId: 3 });
    expect(parseRoute(editorPath(3, 14))).toEqual({ name: "editor", projectId: 3, documentId: 14 });
    expect(parseRoute("/projects/3/documents/14/")).toEqual({
      name: "editor",
      projectId: 3,
      documentId: 14,
    });
  });

  it("knows the help's index and pages", () => {
    expect(parseRoute("/help/")).toEqual({ name: "help", page: null });
    expect(parseRoute("/help/ratings")).toEqual({ name: "help", page: "ratings" });
  });

  it("does not guess at other paths", () => {
    expect(parseRoute("/projects/x/documents/1")).toEqual({ name: "notFound" });
    expect(parseRoute("/elsewhere")).toEqual({ name: "notFound" });
  });
});
