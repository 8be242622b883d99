/**
 * A 400's messages by form field, so a form shows each beside its input: DRF's serializer
 * errors are `{field: [messages]}` (nested for list items) beside a `detail` line that sums
 * up the first one, a service's refusal is `{detail, field}` (backend/core/errors.py).
 * Messages tied to no field are under `""`.
 */
import { ApiError } from "./client";

export type FieldErrors = Record<string, string>;

export function fieldErrors(error: unknown): FieldErrors {
  if (!(error instanceof ApiError) || error.status !== 400) return {};
  const body = error.body;
  if (!body || typeof body !== "object" || Array.isArray(body)) return {};
  const record = body as Record<string, unknown>;
  // A serializer's messages are lists (or objects of lists); a refusal's extras are not.
  const perField = Object.entries(record).filter(
    ([field, messages]) => field !== "detail" && messages !== null && typeof messages === "object",
  );
  if (perField.length === 0) {
    if (typeof record.detail !== "string") return {};
    return { [typeof record.field === "string" ? record.field : ""]: record.detail };
  }
  const errors: FieldErrors = {};
  for (const [field, messages] of perField) {
    errors[field === "non_field_errors" ? "" : field] = flatten(messages).join(" ");
  }
  return errors;
}

function flatten(messages: unknown): string[] {
  if (typeof messages === "string") return [messages];
  if (Array.isArray(messages)) return messages.flatMap(flatten);
  if (messages && typeof messages === "object") return Object.values(messages).flatMap(flatten);
  return [];
}
