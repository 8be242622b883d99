import { useEffect, useState } from "react";
import { fetchHealth, type Health } from "../api/health";
import { describeHealth } from "./health";

/** Whether Tandem can do work now: database, task broker, workers. */
export function HealthPanel() {
  const [health, setHealth] = useState<Health | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    fetchHealth(controller.signal)
      .then(setHealth)
      .catch((reason: unknown) => {
        if (!controller.signal.aborted) setError(String(reason));
      });
    return () => controller.abort();
  }, []);

  return (
    <section aria-labelledby="status-heading" className="status">
      <h2 id="status-heading">Service status</h2>
      {error && <p role="alert">Could not reach the server: {error}</p>}
      {!error && !health && <p aria-busy="true">Checking…</p>}
      {health && (
        <ul data-testid="health">
          {describeHealth(health).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
