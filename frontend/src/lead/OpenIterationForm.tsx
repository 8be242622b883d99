import { useState, type FormEvent } from "react";
import { navigate } from "../app/router";
import { openIteration, type LeadDocument } from "./api";
import { annotatorsOf, usernameOf, useProject } from "./ProjectContext";
import { iterationPath } from "./routes";
import { messageOf } from "./useLoad";

const BATCHABLE = new Set(["imported", "pre_aligned", "in_annotation", "submitted"]);

/** Documents in no iteration yet, each with its annotators: keep, or choose one. */
export function OpenIterationForm({
  nextNumber,
  documents,
  onOpened,
}: {
  nextNumber: number;
  documents: LeadDocument[];
  onOpened: () => void;
}) {
  const { project, members } = useProject();
  const candidates = documents.filter(
    (document) => document.iteration === null && BATCHABLE.has(document.status),
  );
  const annotators = annotatorsOf(members);
  const [name, setName] = useState("");
  const [chosen, setChosen] = useState<Map<number, number[]>>(new Map());
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const toggle = (document: LeadDocument) => {
    const next = new Map(chosen);
    if (next.has(document.id)) next.delete(document.id);
    else next.set(document.id, document.assignees);
    setChosen(next);
  };
  const setAnnotator = (documentId: number, user: number | null) =>
    setChosen(new Map(chosen).set(documentId, user === null ? [] : [user]));
  const spread = () => {
    if (annotators.length === 0) return;
    setChosen(
      new Map(
        [...chosen.keys()].map((id, index) => [id, [annotators[index % annotators.length]!.user]]),
      ),
    );
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const iteration = await openIteration(project.id, {
        name: name.trim(),
        documents: [...chosen.keys()],
        assignments: [...chosen].map(([document, users]) => ({ document, annotators: users })),
      });
      onOpened();
      navigate(iterationPath(project.id, iteration.id));
    } catch (reason) {
      setError(messageOf(reason));
      setBusy(false);
    }
  };

  return (
    <form className="lead-section" onSubmit={submit} aria-labelledby="open-heading">
      <h2 id="open-heading">Open iteration {nextNumber}</h2>
      <p className="muted">
        Tandem pre-aligns the batch with the promoted parameter set
        {project.promoted_parameter_set === null ? " (none yet: the diagonal aligner)" : ""}.
      </p>
      {candidates.length === 0 ? (
        <p>Every imported document is already in an iteration: upload more documents.</p>
      ) : (
        <>
          <label htmlFor="iteration-name">Name (optional)</label>{" "}
          <input
            id="iteration-name"
            value={name}
            maxLength={200}
            onChange={(event) => setName(event.target.value)}
          />
          <table className="lead-table" aria-label="Batch">
            <thead>
              <tr>
                <th scope="col">In the batch</th>
                <th scope="col">Document</th>
                <th scope="col">Annotator</th>
              </tr>
            </thead>
            <tbody>
              {candidates.map((document) => {
                const users = chosen.get(document.id);
                return (
                  <tr key={document.id}>
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`Put ${document.name} in the batch`}
                        checked={users !== undefined}
                        onChange={() => toggle(document)}
                      />
                    </td>
                    <th scope="row">{document.name}</th>
                    <td>
                      {users === undefined ? (
                        <span className="muted">
                          {document.assignees.map((user) => usernameOf(members, user)).join(", ") ||
                            "nobody"}
                        </span>
                      ) : (
                        <select
                          aria-label={`Annotator of ${document.name}`}
                          value={users[0] ?? ""}
                          onChange={(event) =>
                            setAnnotator(
                              document.id,
                              event.target.value ? Number(event.target.value) : null,
                            )
                          }
                        >
                          <option value="">nobody</option>
                          {annotators.map((member) => (
                            <option key={member.user} value={member.user}>
                              {member.username}
                            </option>
                          ))}
                        </select>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <p>
            <button
              type="button"
              onClick={spread}
              disabled={chosen.size === 0 || annotators.length === 0}
            >
              Spread the batch over the annotators
            </button>{" "}
            <button type="submit" className="primary" disabled={busy || chosen.size === 0}>
              Open iteration {nextNumber} with {chosen.size}{" "}
              {chosen.size === 1 ? "document" : "documents"}
            </button>
          </p>
        </>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </form>
  );
}
