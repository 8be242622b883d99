import { useState } from "react";
import type { DocumentStatus } from "../api/annotation";
import { adjudicationPath, Link, editorPath } from "../app/router";
import { ConfirmDialog } from "../components/ConfirmDialog";
import {
  assignDocument,
  deleteAudio,
  deleteDocument,
  fetchDocuments,
  fetchIterations,
  fetchNeedsAdjudication,
  putAudio,
  type LeadDocument,
} from "./api";
import { audioProblem, fileSize } from "./format";
import { AUDIO_EXTENSIONS } from "./pairing";
import { annotatorsOf, usernameOf, useProject } from "./ProjectContext";
import { iterationPath } from "./routes";
import { UploadPanel } from "./UploadPanel";
import { messageOf, useLoad } from "../components/useLoad";
import { counted, transcriptUnit } from "../text/plural";

/** Statuses whose documents open in the editor (the lead reads the assignees' work there). */
export const OPENED: ReadonlySet<DocumentStatus> = new Set([
  "imported",
  "pre_aligned",
  "in_annotation",
  "submitted",
]);

export const DOCUMENT_STATUS_TEXT: Record<DocumentStatus, string> = {
  importing: "Importing",
  import_failed: "Import failed",
  imported: "Imported",
  pre_aligned: "Pre-aligned",
  in_annotation: "In annotation",
  submitted: "Submitted",
};

export function DocumentsSection() {
  const { project } = useProject();
  const [loaded, reload] = useLoad(
    async (signal) => {
      const [documents, iterations, disputed] = await Promise.all([
        fetchDocuments(project.id, signal),
        fetchIterations(project.id, signal),
        fetchNeedsAdjudication(project.id, signal),
      ]);
      return {
        documents,
        numbers: new Map(iterations.map((it) => [it.id, it.number])),
        disputed,
      };
    },
    [project.id],
  );
  return (
    <>
      <UploadPanel projectId={project.id} kind={project.kind} onImported={reload} />
      <section aria-labelledby="documents-heading" className="lead-section">
        <h2 id="documents-heading">Documents</h2>
        {loaded.state === "loading" && <p aria-busy="true">Loading documents…</p>}
        {loaded.state === "failed" && (
          <p role="alert">Documents could not be loaded: {loaded.message}</p>
        )}
        {loaded.state === "ready" && (
          <DocumentTable
            documents={loaded.data.documents}
            numbers={loaded.data.numbers}
            disputed={loaded.data.disputed}
            onChanged={reload}
          />
        )}
      </section>
    </>
  );
}

function DocumentTable({
  documents,
  numbers,
  disputed,
  onChanged,
}: {
  documents: LeadDocument[];
  numbers: Map<number, number>;
  /** Documents that need adjudication: their submitted status alone would hide it. */
  disputed: ReadonlySet<number>;
  onChanged: () => void;
}) {
  const { project } = useProject();
  const [error, setError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<LeadDocument | null>(null);
  if (documents.length === 0) return <p>No documents yet: upload pairs above.</p>;

  const remove = async (document: LeadDocument) => {
    setError(null);
    try {
      await deleteDocument(project.id, document.id);
      onChanged();
    } catch (reason) {
      setError(`${document.name}: ${messageOf(reason)}`);
    }
  };

  const assign = async (document: LeadDocument, assignees: number[]) => {
    setError(null);
    try {
      await assignDocument(project.id, document.id, assignees);
      onChanged();
    } catch (reason) {
      setError(`${document.name}: ${messageOf(reason)}`);
    }
  };

  return (
    <>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <table className="lead-table" aria-label="All documents">
        <thead>
          <tr>
            <th scope="col">Document</th>
            <th scope="col">Status</th>
            <th scope="col">Iteration</th>
            <th scope="col">Size</th>
            <th scope="col">Assignees</th>
            <th scope="col">Recording</th>
            <th scope="col">
              <span className="visually-hidden">Delete</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {documents.map((document) => (
            <tr key={document.id} data-testid="lead-document-row">
              <th scope="row">
                {OPENED.has(document.status) ? (
                  <Link href={editorPath(project.id, document.id)}>{document.name}</Link>
                ) : (
                  document.name
                )}
              </th>
              <td>
                <span className={`status-badge status-${document.status}`}>
                  {DOCUMENT_STATUS_TEXT[document.status]}
                </span>
                {disputed.has(document.id) && (
                  <>
                    {" "}
                    <span className="status-badge status-needs_adjudication">
                      Needs adjudication
                    </span>{" "}
                    <Link
                      className="link-button small"
                      href={adjudicationPath(project.id, document.id)}
                      aria-label={`Adjudicate ${document.name}`}
                    >
                      Adjudicate
                    </Link>
                  </>
                )}
                {document.import_error && (
                  <div className="error small">{document.import_error}</div>
                )}
              </td>
              <td>
                {document.iteration === null ? (
                  <span className="muted">none</span>
                ) : (
                  <Link href={iterationPath(project.id, document.iteration)}>
                    #{numbers.get(document.iteration) ?? "?"}
                  </Link>
                )}
              </td>
              <td>
                {counted(document.turn_count, transcriptUnit(project))},{" "}
                {counted(document.segment_count, "segment")}
              </td>
              <td>
                <AssigneePicker
                  documentName={document.name}
                  assignees={document.assignees}
                  onChange={(assignees) => assign(document, assignees)}
                />
              </td>
              <td>
                <RecordingCell
                  document={document}
                  onChanged={onChanged}
                  onError={(message) => setError(message && `${document.name}: ${message}`)}
                />
              </td>
              <td>
                <button
                  type="button"
                  className="link-button small"
                  onClick={() => setDeleting(document)}
                  aria-label={`Delete ${document.name}`}
                >
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.name ?? "the document"}?`}
        confirmLabel="Delete it"
        keepLabel="Keep it"
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && void remove(deleting)}
      >
        <p>
          Its files, pre-alignments and annotations are deleted for good. A document in an open
          iteration must be taken out of it first.
        </p>
      </ConfirmDialog>
    </>
  );
}

/** The document's recording: its name and size, a file to add or replace it, and removal. */
function RecordingCell({
  document,
  onChanged,
  onError,
}: {
  document: LeadDocument;
  onChanged: () => void;
  /** A refusal in words, or null to clear the last one. */
  onError: (message: string | null) => void;
}) {
  const { project } = useProject();
  const [busy, setBusy] = useState(false);
  const audio = document.audio;
  const change = async (work: () => Promise<unknown>) => {
    onError(null);
    setBusy(true);
    try {
      await work();
      onChanged();
    } catch (reason) {
      onError(audioProblem(reason));
    } finally {
      setBusy(false);
    }
  };
  const verb = audio ? "Replace" : "Add";
  return (
    <span className="recording" data-testid="recording">
      {audio ? (
        <span title={audio.content_type}>
          {audio.name} ({fileSize(audio.size)})
        </span>
      ) : (
        <span className="muted">none</span>
      )}{" "}
      <label className="link-button small">
        {busy ? "Sending…" : verb}
        <input
          type="file"
          className="visually-hidden"
          accept={AUDIO_EXTENSIONS.join(",")}
          aria-label={`${verb} the recording of ${document.name}`}
          disabled={busy}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = "";
            if (file) void change(() => putAudio(project.id, document.id, file));
          }}
        />
      </label>
      {audio && (
        <>
          {" "}
          <button
            type="button"
            className="link-button small"
            disabled={busy}
            aria-label={`Remove the recording of ${document.name}`}
            onClick={() => void change(() => deleteAudio(project.id, document.id))}
          >
            Remove
          </button>
        </>
      )}
    </span>
  );
}

/** Chips to remove, a menu to add: reassigning is one of each. */
export function AssigneePicker({
  documentName,
  assignees,
  onChange,
}: {
  documentName: string;
  assignees: number[];
  onChange: (assignees: number[]) => void;
}) {
  const { members } = useProject();
  const addable = annotatorsOf(members).filter((member) => !assignees.includes(member.user));
  return (
    <span className="assignees">
      {assignees.map((user) => (
        <span key={user} className="chip">
          {usernameOf(members, user)}
          <button
            type="button"
            aria-label={`Unassign ${usernameOf(members, user)} from ${documentName}`}
            onClick={() => onChange(assignees.filter((other) => other !== user))}
          >
            ×
          </button>
        </span>
      ))}
      {addable.length > 0 && (
        <select
          aria-label={`Assign an annotator to ${documentName}`}
          value=""
          onChange={(event) => onChange([...assignees, Number(event.target.value)])}
        >
          <option value="">assign…</option>
          {addable.map((member) => (
            <option key={member.user} value={member.user}>
              {member.username}
            </option>
          ))}
        </select>
      )}
    </span>
  );
}
