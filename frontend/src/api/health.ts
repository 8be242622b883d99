import { apiRequest } from "./client";
import type { Schema } from "./schema";

/** Health of the services Tandem needs, as `GET /api/v1/health/` reports it. */
export type Health = Schema<"HealthOutput">;
export type ServiceCheck = Schema<"ServiceCheck">;

export function fetchHealth(signal?: AbortSignal): Promise<Health> {
  return apiRequest("GET", "health/", { signal });
}
