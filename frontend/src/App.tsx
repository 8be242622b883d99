import { useEffect, useState } from "react";
import { fetchHealth, type Health } from "./api/health";
import { describeHealth } from "./health";

export function App() {
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
    <main className="home">
      <h1>Tandem</h1>
      <p className="tagline">
        Align long recordings with their written reports, correct the alignment, export
        summarization corpora.
      </p>
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
      <nav>
        <a href="/api/v1/docs/">REST API (OpenAPI)</a> · <a href="/admin/">Administration</a>
      </nav>
    </main>
  );
}
