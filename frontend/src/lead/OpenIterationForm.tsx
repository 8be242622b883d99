import { useState, type FormEvent } from "react";
import { navigate } from "../app/router";
import {
  BATCHABLE_STATUSES,
  openIteration,
  type LeadDocument,
  type StartingParameters,
} from "./api";
import { BatchProposalPanel } from "./BatchProposalPanel";
import { annotatorsOf, usernameOf, useProject } from "./ProjectContext";
import { iterationPath } from "./routes";
import { messageOf } from "../components/useLoad";
import { counted, noun } from "../text/plural";

/** Documents in no iteration yet, each with its annotators: keep, or choose one. */
export function OpenIterationForm({
  nextNumber,
  inUse,
  documents,
  onOpened,
}: {
  nextNumber: number;
  /** What pre-aligns the batch; null before any, when the lead chooses. */
  inUse: string | null;
  documents: LeadDocument[];
  onOpened: () => void;
}) {
  const { project, members } = useProject();
  const candidates = documents.filter(
    (document) => document.iteration === null && BATCHABLE_STATUSES.has(document.status),
  );
  const annotators = annotatorsOf(members);
  const [name, setName] = useState("");
  const [chosen, setChosen] = useState<Map<number, number[]>>(new Map());
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [doublePercent, setDoublePercent] = useState("0");
  const [seed, setSeed] = useState("");
  const [starting, setStarting] = useState<StartingParameters>("shipped");

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

  const accept = (documentIds: number[]) => {
    const byId = new Map(candidates.map((document) => [document.id, document]));
    setChosen(new Map(documentIds.map((id) => [id, byId.get(id)?.assignees ?? []])));
  };

  const unassigned = candidates
    .filter((document) => chosen.get(document.id)?.length === 0)
    .map((document) => document.name);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const share = Number(doublePercent) / 100;
      const iteration = await openIteration(project.id, {
        name: name.trim(),
        starting_parameters: starting,
        documents: [...chosen.keys()],
        assignments: [...chosen].map(([document, users]) => ({ document, annotators: users })),
        ...(share > 0 && {
          double_annotation: { share, ...(seed.trim() !== "" && { seed: Number(seed) }) },
        }),
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
      {inUse === null ? (
        <fieldset className="starting-parameters">
          <legend>Pre-align this first batch with</legend>
          <label>
            <input
              type="radio"
              name="starting-parameters"
              checked={starting === "shipped"}
              onChange={() => setStarting("shipped")}
            />{" "}
            the shipped defaults: tuned on public_meetings, where they align about 78 % of turns
            right (word vectors are trained on this project&apos;s texts first)
          </label>
          <label>
            <input
              type="radio"
              name="starting-parameters"
              checked={starting === "diagonal"}
              onChange={() => setStarting("diagonal")}
            />{" "}
            the diagonal aligner, as in the paper&apos;s first iteration (about 20 %)
          </label>
        </fieldset>
      ) : (
        <p className="muted">Tandem pre-aligns the batch with the parameters in use: {inUse}.</p>
      )}
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
          <BatchProposalPanel
            projectId={project.id}
            candidates={candidates.length}
            onAccept={accept}
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
          <p className="inline-form">
            <label htmlFor="double-share">Double-annotate</label>
            <input
              id="double-share"
              type="number"
              min={0}
              max={100}
              step={5}
              size={4}
              value={doublePercent}
              onChange={(event) => setDoublePercent(event.target.value)}
            />
            <span>% of the batch (a second annotator each, drawn at random with seed</span>
            <input
              id="double-seed"
              aria-label="Seed of the draw"
              type="number"
              min={0}
              placeholder="any"
              size={8}
              value={seed}
              onChange={(event) => setSeed(event.target.value)}
            />
            <span>, recorded with the iteration)</span>
          </p>
          {unassigned.length > 0 && (
            <p className="notice" data-testid="unassigned-warning">
              {unassigned.length === 1
                ? `${unassigned[0]} has no annotator`
                : `${counted(unassigned.length, "document")} have no annotator`}
              : nobody will correct {noun(unassigned.length, "it", "them")} until you assign
              someone, here or on the iteration&apos;s page.
            </p>
          )}
          <p>
            <button
              type="button"
              onClick={spread}
              disabled={chosen.size === 0 || annotators.length === 0}
            >
              Spread the batch over the annotators
            </button>{" "}
            <button type="submit" className="primary" disabled={busy || chosen.size === 0}>
              Open iteration {nextNumber} with {counted(chosen.size, "document")}
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
