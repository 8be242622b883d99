import { describe, expect, it } from "vitest";
import type { Health } from "../api/health";
import { describeHealth } from "./health";

const healthy: Health = {
  status: "ok",
  version: "0.1.0",
  database: { ok: true, detail: "" },
  broker: { ok: true, detail: "" },
  workers: { ok: true, detail: "", count: 1, names: ["celery@host"] },
};

describe("describeHealth", () => {
  it("counts workers in the singular and plural", () => {
    expect(describeHealth(healthy)[2]).toBe("1 worker ready");
    expect(describeHealth({ ...healthy, workers: { ...healthy.workers, count: 3 } })[2]).toBe(
      "3 workers ready",
    );
  });

  it("names the failing service and its reason", () => {
    const lines = describeHealth({
      ...healthy,
      status: "degraded",
      broker: { ok: false, detail: "connection refused" },
      workers: { ok: false, detail: "none answered", count: 0, names: [] },
    });
    expect(lines).toEqual([
      "database reachable",
      "task broker: connection refused",
      "no worker: none answered",
    ]);
  });
});
