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

export async function fetchHealth(signal?: AbortSignal): Promise<Health> {
  const response = await fetch("/api/v1/health/", { signal, credentials: "same-origin" });
  return (await response.json()) as Health;
}
