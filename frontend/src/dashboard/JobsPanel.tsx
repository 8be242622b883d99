import { JobProgress } from "../lead/JobProgress";
import { useLoad } from "../lead/useLoad";
import { fetchActiveJobs } from "./api";

const POLL_MS = 3000;

const KIND_TEXT: Record<string, string> = {
  import_document: "Import",
  pre_align: "Pre-alignment",
  train_vectors: "Word vectors",
  tune: "Tuning",
};

/** Queued and running jobs, polled while the dashboard is open. */
export function JobsPanel({ projectId }: { projectId: number }) {
  const [loaded] = useLoad((signal) => fetchActiveJobs(projectId, signal), [projectId], {
    ms: POLL_MS,
    while: () => true,
  });
  return (
    <section aria-labelledby="jobs-heading" className="dashboard-panel">
      <h2 id="jobs-heading">Running jobs</h2>
      {loaded.state === "failed" && <p role="alert">Jobs could not be loaded: {loaded.message}</p>}
      {loaded.state === "ready" &&
        (loaded.data.jobs.length === 0 ? (
          <p>No job is queued or running.</p>
        ) : (
          <ul className="plain" aria-label="Running jobs">
            {loaded.data.jobs.map((job) => (
              <li key={job.id}>
                {KIND_TEXT[job.kind] ?? job.kind} {job.id}:{" "}
                <JobProgress job={job} label={`${KIND_TEXT[job.kind] ?? job.kind} ${job.id}`} />
              </li>
            ))}
          </ul>
        ))}
    </section>
  );
}
