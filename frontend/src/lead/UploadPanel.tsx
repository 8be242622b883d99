import { useState, type DragEvent } from "react";
import { uploadDocument, type ProjectKind } from "./api";
import {
  AUDIO_EXTENSIONS,
  REPORTS,
  TRANSCRIPT_EXTENSIONS,
  describeFiles,
  planUploads,
  type DroppedFile,
  type PlannedUpload,
} from "./pairing";
import { UploadProgress, type UploadTask } from "./UploadProgress";
import { messageOf } from "../components/useLoad";

const HEADINGS: Record<ProjectKind, string> = {
  meeting: "Upload document pairs",
  talk: "Upload papers and talks",
  podcast: "Upload episodes",
};

const INSTRUCTIONS: Record<ProjectKind, string> = {
  meeting:
    "Drop reports (.docx, .txt, .md) and transcripts (.ctm parts, .srt, .vtt, .json) here; " +
    "files pair by name.",
  talk:
    "Drop papers (.pdf, TEI .xml, .md, .txt) and their talks' transcripts (.ctm parts, .srt, " +
    ".vtt, .json) here; files pair by name.",
  podcast:
    "Drop descriptions (.txt, .md) and timed transcripts (Whisper .json, .ctm parts, .srt, " +
    ".vtt) here; files pair by name, and transcripts are cut into time windows.",
};

/**
 * Drop files (or choose them), check the pairing, send: each pair is its own request and
 * import job, so one bad file fails alone with the server's words while the others import.
 */
export function UploadPanel({
  projectId,
  kind,
  onImported,
}: {
  projectId: number;
  /** The project's: what its reports are (reports, papers or descriptions). */
  kind: ProjectKind;
  onImported: () => void;
}) {
  const [dropped, setDropped] = useState<DroppedFile[]>([]);
  const [tasks, setTasks] = useState<UploadTask[]>([]);
  const [dragging, setDragging] = useState(false);

  const add = (files: FileList | null) => {
    if (files && files.length > 0)
      setDropped((current) => [...current, ...describeFiles([...files], kind)]);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    add(event.dataTransfer.files);
  };
  const plan = planUploads(dropped);
  const ready = plan.filter((upload) => upload.problem === null);
  const unreadable = dropped.filter((item) => item.role === "unreadable");

  const send = () => {
    const sent = new Set(ready.map((upload) => upload.key));
    setDropped((current) => current.filter((item) => !sent.has(item.key)));
    for (const upload of ready) void start(upload);
  };

  const start = async (upload: PlannedUpload) => {
    const id = `${upload.key}-${Date.now()}-${Math.random()}`;
    const update = (change: Partial<UploadTask>) =>
      setTasks((current) =>
        current.map((task) => (task.id === id ? { ...task, ...change } : task)),
      );
    setTasks((current) => [...current, { id, name: upload.name, jobId: null, error: null }]);
    try {
      const job = await uploadDocument(projectId, {
        name: upload.name,
        report: upload.report!,
        transcripts: upload.transcripts,
        audio: upload.audio,
      });
      update({ jobId: job.id });
      onImported(); // the document is listed, importing, from now on
    } catch (reason) {
      update({ error: messageOf(reason) });
    }
  };

  const moveFile = (item: DroppedFile, key: string) =>
    setDropped((current) => current.map((other) => (other === item ? { ...other, key } : other)));

  return (
    <section aria-labelledby="upload-heading" className="lead-section">
      <h2 id="upload-heading">{HEADINGS[kind]}</h2>
      <div
        className={`drop-zone${dragging ? " dragging" : ""}`}
        data-testid="drop-zone"
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <p>
          {INSTRUCTIONS[kind]} A recording (.wav, .mp3, .ogg, .opus, .m4a, .aac, .flac) may join its
          pair, for listening in the editor.
        </p>
        <label className="button">
          Choose files…
          <input
            type="file"
            multiple
            className="visually-hidden"
            accept={[
              ...REPORTS[kind].extensions,
              ...TRANSCRIPT_EXTENSIONS,
              ...AUDIO_EXTENSIONS,
            ].join(",")}
            onChange={(event) => {
              add(event.target.files);
              event.target.value = "";
            }}
          />
        </label>
      </div>
      {unreadable.length > 0 && (
        <p role="alert" className="error">
          Not a format Tandem reads, left out: {unreadable.map((item) => item.file.name).join(", ")}
        </p>
      )}
      {plan.length > 0 && <PairingTable plan={plan} dropped={dropped} onMove={moveFile} />}
      {plan.length > 0 && (
        <p>
          <button type="button" className="primary" disabled={ready.length === 0} onClick={send}>
            Upload {ready.length} {ready.length === 1 ? "pair" : "pairs"}
          </button>{" "}
          <button type="button" onClick={() => setDropped([])}>
            Clear
          </button>
        </p>
      )}
      {tasks.length > 0 && (
        <ul className="upload-tasks" aria-label="Uploads">
          {tasks.map((task) => (
            <UploadProgress
              key={task.id}
              projectId={projectId}
              task={task}
              onImported={onImported}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function PairingTable({
  plan,
  dropped,
  onMove,
}: {
  plan: PlannedUpload[];
  dropped: DroppedFile[];
  onMove: (item: DroppedFile, key: string) => void;
}) {
  return (
    <table className="lead-table pairing" aria-label="Pairs to upload">
      <thead>
        <tr>
          <th scope="col">Document</th>
          <th scope="col">Files (change a file&apos;s pair if the names misled)</th>
          <th scope="col">Ready?</th>
        </tr>
      </thead>
      <tbody>
        {plan.map((upload) => (
          <tr key={upload.key} data-testid="planned-upload">
            <th scope="row">{upload.name}</th>
            <td>
              <ul className="plain">
                {dropped
                  .filter((item) => item.key === upload.key && item.role !== "unreadable")
                  .map((item) => (
                    <li key={`${item.file.name}-${dropped.indexOf(item)}`}>
                      {item.role}: {item.file.name}{" "}
                      <select
                        aria-label={`Pair of ${item.file.name}`}
                        value={item.key}
                        onChange={(event) => onMove(item, event.target.value)}
                      >
                        {plan.map((target) => (
                          <option key={target.key} value={target.key}>
                            {target.name}
                          </option>
                        ))}
                      </select>
                    </li>
                  ))}
              </ul>
            </td>
            <td>{upload.problem ?? "Ready"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
