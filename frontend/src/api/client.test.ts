import { afterEach, beforeEach, describe, expect, expectTypeOf, it, vi } from "vitest";
import { apiRequest, errorMessage, fetchAllPages } from "./client";
import type { Schema } from "./schema";

const badRequest = { status: 400, statusText: "Bad Request" };

describe("errorMessage", () => {
  it("reads DRF's detail, or the first field's messages", () => {
    expect(errorMessage(badRequest, { detail: "Your copy is stale." })).toBe("Your copy is stale.");
    expect(errorMessage(badRequest, { version: ["must be an integer."] })).toBe(
      "version: must be an integer.",
    );
    expect(errorMessage(badRequest, { non_field_errors: ["Wrong password."] })).toBe(
      "Wrong password.",
    );
  });

  it("follows a nested serializer's errors to the field", () => {
    expect(errorMessage(badRequest, { settings: { license: ["Give an id."] } })).toBe(
      "settings.license: Give an id.",
    );
  });

  it("falls back to the status when the body says nothing", () => {
    expect(errorMessage({ status: 502, statusText: "Bad Gateway" }, "<html>")).toBe(
      "The server answered 502 Bad Gateway",
    );
  });
});

describe("apiRequest", () => {
  const sent: { url: string; init: RequestInit }[] = [];
  beforeEach(() => {
    sent.length = 0;
    vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
      sent.push({ url, init });
      const page = url.includes("page=2")
        ? { count: 2, next: null, previous: null, results: [{ id: 2 }] }
        : {
            count: 2,
            next: "http://testserver/api/v1/projects/?page=2",
            previous: null,
            results: [{ id: 1 }],
          };
      return new Response(JSON.stringify(page), { status: 200 });
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it("fills the schema path's placeholders and writes the query", async () => {
    await apiRequest("GET", "projects/{project_id}/iterations/{iteration_id}/review/", {
      path: { project_id: 3, iteration_id: 14 },
      query: { threshold: 0.5 },
    });
    await apiRequest("GET", "help/{name}/", { path: { name: "a b/c" } });
    await apiRequest("GET", "help/search/", { query: { q: "x&y" } });
    expect(sent.map(({ url }) => url)).toEqual([
      "/api/v1/projects/3/iterations/14/review/?threshold=0.5",
      "/api/v1/help/a%20b%2Fc/",
      "/api/v1/help/search/?q=x%26y",
    ]);
  });

  it("leaves out query parameters that are undefined", async () => {
    await apiRequest("GET", "projects/{project_id}/iterations/{iteration_id}/review/", {
      path: { project_id: 3, iteration_id: 14 },
      query: { threshold: undefined },
    });
    expect(sent[0]?.url).toBe("/api/v1/projects/3/iterations/14/review/");
  });

  it("follows a paginated list's next pages", async () => {
    expect(await fetchAllPages("projects/")).toEqual([{ id: 1 }, { id: 2 }]);
    expect(sent.map(({ url }) => url)).toEqual(["/api/v1/projects/", "/api/v1/projects/?page=2"]);
  });
});

/** Never run: tsc checks these calls against the schema (`@ts-expect-error` fails the build
 * when the line it marks compiles). */
export function typedBySchema() {
  expectTypeOf(apiRequest("GET", "health/")).resolves.toEqualTypeOf<Schema<"HealthOutput">>();
  expectTypeOf(apiRequest("DELETE", "auth/session/")).resolves.toEqualTypeOf<null>();
  expectTypeOf(fetchAllPages("projects/")).resolves.toEqualTypeOf<Schema<"ProjectOutput">[]>();
  // @ts-expect-error: no such endpoint
  void apiRequest("GET", "projects/{project_id}/nothing/");
  // @ts-expect-error: the endpoint takes no DELETE
  void apiRequest("DELETE", "health/");
  // @ts-expect-error: the path's placeholders need values
  void apiRequest("GET", "projects/{project_id}/");
  void apiRequest("PUT", "projects/{project_id}/documents/{document_id}/position/", {
    path: { project_id: 1, document_id: 2 },
    // @ts-expect-error: the body's field is `turn`
    body: { position: 3 },
  });
  void apiRequest("GET", "help/search/", {
    // @ts-expect-error: the endpoint's query has no such parameter
    query: { page: 2 },
  });
}
