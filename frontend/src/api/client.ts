/**
 * The one way the app talks to the REST API: same-origin JSON with Django's session cookie,
 * the CSRF token on every unsafe request, and errors that say what went wrong.
 */

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

export interface RequestOptions {
  /** JSON, or a FormData sent as multipart (file uploads). */
  body?: unknown;
  signal?: AbortSignal;
  /** Keeps the request alive while the page unloads, for a last save. */
  keepalive?: boolean;
}

export async function apiRequest<T>(
  method: Method,
  path: string,
  { body, signal, keepalive }: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  const multipart = body instanceof FormData;
  if (body !== undefined && !multipart) headers["Content-Type"] = "application/json";
  if (method !== "GET") {
    const token = currentCsrfToken();
    if (token) headers["X-CSRFToken"] = token;
  }
  let response: Response;
  try {
    response = await fetch(`/api/v1/${path}`, {
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
  return payload as T;
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

/** DRF's page-number pagination. */
export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

/** Every page of a paginated list; lists an annotator sees are short, so this stays cheap. */
export async function fetchAllPages<T>(path: string, signal?: AbortSignal): Promise<T[]> {
  const items: T[] = [];
  let next: string | null = path;
  while (next) {
    const page: Page<T> = await apiRequest<Page<T>>("GET", next, { signal });
    items.push(...page.results);
    next = page.next ? page.next.slice(page.next.indexOf("/api/v1/") + "/api/v1/".length) : null;
  }
  return items;
}
