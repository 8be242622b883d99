import { useState } from "react";
import { cancelJob } from "../lead/api";
import { JobProgress } from "../lead/JobProgress";
import { messageOf, useLoad } from "../components/useLoad";
import { fetchActiveJobs } from "../api/dashboards";

const POLL_MS = 3000;

const KIND_TEXT: Record<string, string> = {
  import_document: "Import",
  pre_align: "Pre-alignment",
  train_vectors: "Word vectors",
  tune: "Tuning",
};

/** Queued and running jobs, polled while the dashboard is open; a lead cancels one. */
export function JobsPanel({ projectId }: { projectId: number }) {
  const [error, setError] = useState<string | null>(null);
  const [loaded, reload] = useLoad((signal) => fetchActiveJobs(projectId, signal), [projectId], {
    ms: POLL_MS,
    while: () => true,
  });
  return (
    <section aria-labelledby="jobs-heading" className="dashboard-panel">
      <h2 id="jobs-heading">Running jobs</h2>
      {loaded.state === "failed" && <p role="alert">Jobs could not be loaded: {loaded.message}</p>}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {loaded.state === "ready" &&
        (loaded.data.jobs.length === 0 ? (
          <p>No job is queued or running.</p>
        ) : (
          <ul className="plain" aria-label="Running jobs">
            {loaded.data.jobs.map((job) => (
              <li key={job.id}>
                {KIND_TEXT[job.kind] ?? job.kind} {job.id}:{" "}
                <JobProgress job={job} label={`${KIND_TEXT[job.kind] ?? job.kind} ${job.id}`} />{" "}
                <button
                  type="button"
                  aria-label={`Cancel ${KIND_TEXT[job.kind] ?? job.kind} ${job.id}`}
                  onClick={() => {
                    setError(null);
                    cancelJob(projectId, job.id).then(reload, (reason: unknown) =>
                      setError(messageOf(reason)),
                    );
                  }}
                >
                  Cancel
                </button>
              </li>
            ))}
          </ul>
        ))}
    </section>
  );
}
