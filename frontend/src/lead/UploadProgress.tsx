import { useEffect, useRef } from "react";
import { fetchJob, FINISHED_JOB_STATUSES } from "./api";
import { JobProgress } from "./JobProgress";
import { useLoad } from "../components/useLoad";

export interface UploadTask {
  id: string;
  name: string;
  /** Set once the server accepted the files and queued the import. */
  jobId: number | null;
  /** The server refused the upload itself (a 4xx naming the problem). */
  error: string | null;
}

const POLL_MS = 1000;

export function UploadProgress({
  projectId,
  task,
  onImported,
}: {
  projectId: number;
  task: UploadTask;
  onImported: () => void;
}) {
  return (
    <li data-testid="upload" data-name={task.name}>
      <strong>{task.name}</strong>{" "}
      {task.error ? (
        <span role="alert" className="error">
          Refused: {task.error}
        </span>
      ) : task.jobId === null ? (
        <span role="status">Sending…</span>
      ) : (
        <FollowedImport projectId={projectId} jobId={task.jobId} onImported={onImported} />
      )}
    </li>
  );
}

function FollowedImport({
  projectId,
  jobId,
  onImported,
}: {
  projectId: number;
  jobId: number;
  onImported: () => void;
}) {
  const [loaded] = useLoad((signal) => fetchJob(projectId, jobId, signal), [projectId, jobId], {
    ms: POLL_MS,
    while: (job) => !FINISHED_JOB_STATUSES.has(job.status),
  });
  const finished = loaded.state === "ready" && FINISHED_JOB_STATUSES.has(loaded.data.status);
  const reported = useRef(false);
  useEffect(() => {
    if (finished && !reported.current) {
      reported.current = true;
      onImported();
    }
  }, [finished, onImported]);

  if (loaded.state === "loading") return <span role="status">Queued…</span>;
  if (loaded.state === "failed") {
    return <span className="error">Lost track of the import: {loaded.message}</span>;
  }
  return <JobProgress job={loaded.data} label={`Import of ${jobId}`} />;
}
