/**
 * The one way the app talks to the REST API: same-origin JSON with Django's session cookie,
 * the CSRF token on every unsafe request, and errors that say what went wrong. Calls name
 * the schema's path and method, so their parameters, bodies and answers are the schema's types.
 */
import type { paths } from "./schema.gen";

/** The server answered with an error status; `body` is its JSON answer, when there was one. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;

  constructor(status: number, message: string, body: unknown) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.body = body;
  }
}

/** The request never reached the server: the browser is offline or the server is down. */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super("The server cannot be reached.", { cause });
    this.name = "NetworkError";
  }
}

let csrfToken: string | null = null;

/** The session endpoint hands out the token; remembering it spares parsing cookies. */
export function rememberCsrfToken(token: string): void {
  csrfToken = token;
}

function currentCsrfToken(): string | null {
  const fromCookie = document.cookie
    .split("; ")
    .find((cookie) => cookie.startsWith("csrftoken="))
    ?.slice("csrftoken=".length);
  return fromCookie ?? csrfToken;
}

type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/** Any call's options, as the request is sent; `RequestOptions` narrows them per operation. */
interface SentOptions {
  path?: Record<string, string | number>;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  signal?: AbortSignal;
  /** Keeps the request alive while the page unloads, for a last save. */
  keepalive?: boolean;
}

/** An endpoint as the schema names it, below `/api/v1/`: `"projects/{project_id}/"`. */
export type ApiPath = {
  [Key in keyof paths]: Key extends `/api/v1/${infer Path}` ? Path : never;
}[keyof paths];

/** The schema's operation for `method` on `path`; `never` where the API has none. */
type Operation<M extends Method, P extends ApiPath> = NonNullable<
  paths[`/api/v1/${P}`][Lowercase<M>]
>;

/** The paths that answer `method`, so a call to a route the API lacks does not compile. */
export type PathFor<M extends Method> = {
  [P in ApiPath]: [Operation<M, P>] extends [never] ? never : P;
}[ApiPath];

/** The JSON a successful call answers (null for a 204). */
export type ApiResponse<M extends Method, P extends PathFor<M>> =
  Operation<M, P> extends { responses: infer Responses }
    ? {
        [Status in keyof Responses & (200 | 201 | 202 | 204)]: Responses[Status] extends {
          content: { "application/json": infer Json };
        }
          ? Json
          : null;
      }[keyof Responses & (200 | 201 | 202 | 204)]
    : never;

/** The media types and shapes of a request body; never for an operation that takes none. */
type ContentOf<RequestBody> = RequestBody extends { content: infer Content } ? Content : never;
type BodyContent<M extends Method, P extends PathFor<M>> = ContentOf<
  Operation<M, P>["requestBody"]
>;

/** The body a call sends: JSON, or a FormData where the API takes only multipart. */
export type ApiBody<M extends Method, P extends PathFor<M>> = [BodyContent<M, P>] extends [never]
  ? never
  : BodyContent<M, P> extends { "application/json": infer Json }
    ? Json
    : FormData;

type ParametersOf<M extends Method, P extends PathFor<M>> = Operation<M, P>["parameters"];

/** Whatever the operation declares: its path's `{placeholders}`, its query, its body. */
export type RequestOptions<M extends Method, P extends PathFor<M>> = (ParametersOf<M, P> extends {
  path: infer Path extends SentOptions["path"];
}
  ? { path: Path }
  : { path?: never }) &
  (ParametersOf<M, P> extends { query?: infer Query extends SentOptions["query"] }
    ? [Query] extends [undefined]
      ? { query?: never }
      : { query?: Query }
    : { query?: never }) &
  ([ApiBody<M, P>] extends [never]
    ? { body?: never }
    : undefined extends Operation<M, P>["requestBody"]
      ? { body?: ApiBody<M, P> }
      : { body: ApiBody<M, P> }) &
  Pick<SentOptions, "signal" | "keepalive">;

/** The options argument, which may be left out when nothing in it is required. */
type OptionsArgument<M extends Method, P extends PathFor<M>> =
  object extends RequestOptions<M, P>
    ? [options?: RequestOptions<M, P>]
    : [options: RequestOptions<M, P>];

/**
 * Calls one operation of the API's schema: `path` is the schema's own (`{placeholders}` are
 * filled from `options.path`), so tsc checks the parameters and the body against the schema
 * and the answer has the schema's type.
 */
export async function apiRequest<M extends Method, P extends PathFor<M>>(
  method: M,
  path: P,
  ...[options]: OptionsArgument<M, P>
): Promise<ApiResponse<M, P>> {
  // The schema is the contract, and tests/core/test_schema_conformance.py holds the server's
  // answers to it: the answer is taken to be what the schema says.
  return (await send(method, urlOf(path, options), options)) as ApiResponse<M, P>;
}

function urlOf(path: string, { path: placeholders, query }: SentOptions = {}): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = placeholders?.[name];
    if (value === undefined) throw new Error(`${path} needs ${name}`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) search.set(name, String(value));
  }
  const written = search.toString();
  return written ? `${filled}?${written}` : filled;
}

async function send(
  method: Method,
  url: string,
  { body, signal, keepalive }: SentOptions = {},
): Promise<unknown> {
  const headers: Record<string, string> = { Accept: "application/json" };
  const multipart = body instanceof FormData;
  if (body !== undefined && !multipart) headers["Content-Type"] = "application/json";
  if (method !== "GET") {
    const token = currentCsrfToken();
    if (token) headers["X-CSRFToken"] = token;
  }
  let response: Response;
  try {
    response = await fetch(`/api/v1/${url}`, {
      method,
      headers,
      body: body === undefined || multipart ? (body as FormData | undefined) : JSON.stringify(body),
      credentials: "same-origin",
      signal,
      keepalive,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new NetworkError(error);
  }
  const payload = await readJson(response);
  if (!response.ok) throw new ApiError(response.status, errorMessage(response, payload), payload);
  return payload;
}

async function readJson(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** DRF answers `{detail}` or `{field: [messages]}` (nested for a nested serializer:
 * `{settings: {license: [...]}}`); either way a person should read one line. */
export function errorMessage(response: { status: number; statusText: string }, payload: unknown) {
  if (payload && typeof payload === "object") {
    const record = payload as Record<string, unknown>;
    if (typeof record.detail === "string") return record.detail;
    const first = Object.entries(record)[0];
    if (first) return fieldMessage(first[0], first[1]);
  }
  return `The server answered ${response.status} ${response.statusText}`.trim();
}

function fieldMessage(field: string, messages: unknown): string {
  if (messages && typeof messages === "object" && !Array.isArray(messages)) {
    const first = Object.entries(messages as Record<string, unknown>)[0];
    if (first) return fieldMessage(`${field}.${first[0]}`, first[1]);
  }
  const message = Array.isArray(messages) ? messages.join(" ") : String(messages);
  return field === "non_field_errors" ? message : `${field}: ${message}`;
}

/** The item of a DRF page (`{count, next, previous, results}`). */
type PageItem<P extends PathFor<"GET">> =
  ApiResponse<"GET", P> extends { next?: string | null; results: (infer Item)[] } ? Item : never;

/** The paths whose GET answers a DRF page. */
type PagedPath = {
  [P in PathFor<"GET">]: [PageItem<P>] extends [never] ? never : P;
}[PathFor<"GET">];

/** Every page of a paginated list; lists an annotator sees are short, so this stays cheap. */
export async function fetchAllPages<P extends PagedPath>(
  path: P,
  ...[options]: OptionsArgument<"GET", P>
): Promise<PageItem<P>[]> {
  const items: PageItem<P>[] = [];
  let next: string | null = urlOf(path, options);
  while (next) {
    const page = (await send("GET", next, options)) as {
      next: string | null;
      results: PageItem<P>[];
    };
    items.push(...page.results);
    next = page.next ? page.next.slice(page.next.indexOf("/api/v1/") + "/api/v1/".length) : null;
  }
  return items;
}
