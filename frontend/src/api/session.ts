import { apiRequest, rememberCsrfToken } from "./client";
import type { Schema } from "./schema";

export type SessionUser = Schema<"SessionUser">;
export type Session = Schema<"SessionOutput">;

export async function fetchSession(signal?: AbortSignal): Promise<Session> {
  const session = await apiRequest("GET", "auth/session/", { signal });
  rememberCsrfToken(session.csrf_token);
  return session;
}

export async function signIn(username: string, password: string): Promise<Session> {
  const session = await apiRequest("POST", "auth/session/", {
    body: { username, password },
  });
  // Django rotates the token when a user signs in.
  rememberCsrfToken(session.csrf_token);
  return session;
}

export async function signOut(): Promise<void> {
  await apiRequest("DELETE", "auth/session/");
}
