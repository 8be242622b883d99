import type { Health } from "./api/health";

/** One line per service, worded for a person deciding whether Tandem can do work now. */
export function describeHealth(health: Health): string[] {
  const workers = health.workers.ok
    ? `${health.workers.count} worker${health.workers.count === 1 ? "" : "s"} ready`
    : `no worker: ${health.workers.detail}`;
  return [
    health.database.ok ? "database reachable" : `database: ${health.database.detail}`,
    health.broker.ok ? "task broker reachable" : `task broker: ${health.broker.detail}`,
    workers,
  ];
}
