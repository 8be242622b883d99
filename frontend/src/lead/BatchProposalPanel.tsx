import { useState } from "react";
import { proposeBatch, type BatchProposal, type SelectionPolicy } from "./api";
import { messageOf } from "../components/useLoad";
import { counted } from "../text/plural";

const POLICIES: { value: SelectionPolicy; label: string }[] = [
  { value: "random", label: "at random" },
  { value: "uncertainty", label: "where the engine is least sure (most wrong turns expected)" },
  { value: "diversity", label: "unlike the gold so far" },
];

/**
 * Lets Tandem propose the batch by a policy; the lead reads why each document was chosen and
 * takes the proposal into the form (where it can still be edited) or leaves it.
 */
export function BatchProposalPanel({
  projectId,
  candidates,
  onAccept,
}: {
  projectId: number;
  candidates: number;
  onAccept: (documentIds: number[]) => void;
}) {
  // The API's default policy (backend/iterations/proposals.py, DEFAULT_POLICY).
  const [policy, setPolicy] = useState<SelectionPolicy>("random");
  const [size, setSize] = useState(String(Math.min(5, candidates)));
  const [proposal, setProposal] = useState<BatchProposal | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const propose = async () => {
    setBusy(true);
    setError(null);
    try {
      setProposal(await proposeBatch(projectId, policy, Number(size)));
    } catch (reason) {
      setProposal(null);
      setError(messageOf(reason));
    } finally {
      setBusy(false);
    }
  };

  return (
    <fieldset className="batch-proposal">
      <legend>Let Tandem propose the batch</legend>
      <p className="inline-form">
        <label htmlFor="proposal-size">Documents</label>
        <input
          id="proposal-size"
          type="number"
          min={1}
          max={candidates}
          size={4}
          value={size}
          onChange={(event) => setSize(event.target.value)}
        />
        <label htmlFor="proposal-policy">chosen</label>
        <select
          id="proposal-policy"
          value={policy}
          onChange={(event) => setPolicy(event.target.value as SelectionPolicy)}
        >
          {POLICIES.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <button type="button" onClick={propose} disabled={busy || !(Number(size) >= 1)}>
          Propose
        </button>
      </p>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {proposal && (
        <div data-testid="batch-proposal">
          {proposal.documents.length === 0 ? (
            <p>Tandem has no document to propose by this policy.</p>
          ) : (
            <ol aria-label="Proposed batch">
              {proposal.documents.map((document) => (
                <li key={document.id}>
                  <strong>{document.name}</strong>: {document.reason}
                </li>
              ))}
            </ol>
          )}
          {proposal.unranked.length > 0 && (
            <p className="muted" data-testid="unranked">
              Not ranked ({counted(proposal.unranked.length, "document")}, pre-align them to rank
              them):{" "}
              {proposal.unranked
                .map((document) => `${document.name} (${document.reason})`)
                .join(", ")}
              .
            </p>
          )}
          {proposal.documents.length > 0 && (
            <p>
              <button
                type="button"
                onClick={() => onAccept(proposal.documents.map((document) => document.id))}
              >
                Use this proposal
              </button>{" "}
              <span className="muted">it replaces the batch below, which you can still edit</span>
            </p>
          )}
        </div>
      )}
    </fieldset>
  );
}
