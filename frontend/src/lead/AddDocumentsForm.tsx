import { useState, type FormEvent } from "react";
import { addToIteration, BATCHABLE_STATUSES, fetchDocuments } from "./api";
import { useProject } from "./ProjectContext";
import { messageOf, useLoad } from "../components/useLoad";

/** Documents in no iteration, to add to this open one; each keeps its assignees. */
export function AddDocumentsForm({
  iterationId,
  number,
  batch,
  jobBefore,
  onAdding,
  onAdded,
}: {
  iterationId: number;
  number: number;
  /** The batch's document ids: a document taken out of it becomes one to add. */
  batch: number[];
  /** Called as the request leaves: what the page said before is out of date. */
  onAdding: () => void;
  /** `preAligning`: a job started (a document lacked the iteration's pre-alignment). */
  onAdded: (count: number, preAligning: boolean) => void;
  /** The iteration's pre-alignment job as the page last saw it. */
  jobBefore: number | null;
}) {
  const { project } = useProject();
  const batchKey = batch.join(",");
  const [loaded, reload] = useLoad(
    (signal) => fetchDocuments(project.id, signal),
    [project.id, batchKey],
  );
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (loaded.state !== "ready") return null;
  const candidates = loaded.data.filter(
    (document) => document.iteration === null && BATCHABLE_STATUSES.has(document.status),
  );
  const toggle = (id: number) => {
    const next = new Set(chosen);
    if (!next.delete(id)) next.add(id);
    setChosen(next);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    onAdding();
    try {
      const detail = await addToIteration(project.id, iterationId, { documents: [...chosen] });
      onAdded(chosen.size, detail.pre_align_job?.id !== jobBefore);
      setChosen(new Set());
      reload();
    } catch (reason) {
      setError(messageOf(reason));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} aria-labelledby="add-documents-heading">
      <h3 id="add-documents-heading">Add documents to iteration {number}</h3>
      {candidates.length === 0 ? (
        <p className="muted">Every imported document is in an iteration: upload more to add.</p>
      ) : (
        <>
          <ul className="plain-list">
            {candidates.map((document) => (
              <li key={document.id}>
                <label>
                  <input
                    type="checkbox"
                    checked={chosen.has(document.id)}
                    onChange={() => toggle(document.id)}
                  />{" "}
                  {document.name}
                </label>
              </li>
            ))}
          </ul>
          {error && (
            <p role="alert" className="error">
              {error}
            </p>
          )}
          <button type="submit" disabled={busy || chosen.size === 0}>
            {busy ? "Adding…" : "Add and pre-align"}
          </button>
        </>
      )}
    </form>
  );
}
