import type { JobBrief } from "./api";

const STATUS_TEXT: Record<JobBrief["status"], string> = {
  queued: "Queued",
  running: "Running",
  succeeded: "Done",
  failed: "Failed",
  cancelled: "Cancelled",
};

/** A job's status, progress bar and message, or its error once it failed. */
export function JobProgress({ job, label }: { job: JobBrief; label: string }) {
  const percent = Math.round(job.progress * 100);
  return (
    <span className={`job job-${job.status}`} data-testid="job" data-status={job.status}>
      <span className="job-status">{STATUS_TEXT[job.status]}</span>{" "}
      {(job.status === "running" || job.status === "queued") && (
        <progress max={100} value={percent} aria-label={`${label}: ${percent}%`} />
      )}{" "}
      {job.status === "failed" ? (
        <span role="alert" className="error">
          {job.error || job.message}
        </span>
      ) : (
        job.message &&
        job.message.toLowerCase() !== STATUS_TEXT[job.status].toLowerCase() && (
          <span className="muted">{job.message}</span>
        )
      )}
    </span>
  );
}
