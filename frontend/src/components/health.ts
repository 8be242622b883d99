import type { Health } from "../api/health";
import { counted } from "../text/plural";

/** One line per service, worded for a person deciding whether Tandem can do work now. */
export function describeHealth(health: Health): string[] {
  const workers = health.workers.ok
    ? `${counted(health.workers.count, "worker")} ready`
    : `no worker: ${health.workers.detail}`;
  return [
    health.database.ok ? "database reachable" : `database: ${health.database.detail}`,
    health.broker.ok ? "task broker reachable" : `task broker: ${health.broker.detail}`,
    workers,
  ];
}
