import { apiRequest } from "./client";

/** Health of the services Tandem needs, as `GET /api/v1/health/` reports it. */
export interface Health {
  status: "ok" | "degraded";
  database: ServiceCheck;
  broker: ServiceCheck;
  workers: ServiceCheck & { count: number };
  version: string;
}

export interface ServiceCheck {
  ok: boolean;
  detail: string;
}

export function fetchHealth(signal?: AbortSignal): Promise<Health> {
  return apiRequest<Health>("GET", "health/", { signal });
}
