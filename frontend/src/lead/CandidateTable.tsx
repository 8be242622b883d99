import { useState } from "react";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { counted } from "../text/plural";
import {
  fetchCandidates,
  type Candidate,
  type CandidateOrdering,
  type CandidatePage,
  type CandidateSort,
} from "./api";
import { differences, differenceText, tiedGroups } from "./candidates";
import { percent } from "../text/format";
import { useLoad } from "../components/useLoad";

const PAGE_SIZE = 50;

const SORTABLE: { field: CandidateOrdering; label: string; higherIsBetter: boolean }[] = [
  { field: "rank", label: "Rank", higherIsBetter: false },
  { field: "segment_accuracy", label: "Segment %", higherIsBetter: true },
  { field: "word_accuracy", label: "Word %", higherIsBetter: true },
  { field: "window_diff", label: "WindowDiff %", higherIsBetter: false },
  { field: "documents_evaluated", label: "Documents", higherIsBetter: true },
];

type Spread = Candidate["spread"];

/** A figure and how much it moves from one gold document to the next (the standard
 * deviation across the documents scored): two candidates closer than that are not told
 * apart by this gold. */
function figure(value: number | null, spread: number | null | undefined) {
  return (
    <>
      {percent(value)}
      {spread !== null && spread !== undefined && (
        <span className="muted" title="Standard deviation across the documents scored">
          {" "}
          ± {spread.toFixed(1)}
        </span>
      )}
    </>
  );
}

function Figures({ candidate, spread }: { candidate: Candidate; spread?: Spread }) {
  return (
    <>
      <td className="number">{figure(candidate.segment_accuracy, spread?.segment_accuracy)}</td>
      <td className="number">{figure(candidate.word_accuracy, spread?.word_accuracy)}</td>
      <td className="number">{figure(candidate.window_diff, spread?.window_diff)}</td>
      <td className="number">{candidate.documents_evaluated}</td>
    </>
  );
}

/**
 * A tuning run's candidates as a lead decides from them: first the parameters in use and the
 * proposal side by side, each figure with its spread across the gold documents; then every
 * candidate, sorted by the server (the run can hold hundreds of settings), showing only the
 * settings that differ from the parameters in use, and settings that tie (the same figures
 * on the same gold) in one row with their count. Promoting asks first.
 */
export function CandidateTable({
  projectId,
  iterationId,
  onPromote,
  refreshKey,
}: {
  projectId: number;
  /** The iteration's run; the project's latest when undefined. */
  iterationId?: number;
  onPromote?: (candidate: Candidate) => void;
  /** Changes when the run may have new scores. */
  refreshKey?: unknown;
}) {
  const [ordering, setOrdering] = useState<CandidateSort>("rank");
  const [page, setPage] = useState(1);
  const [confirming, setConfirming] = useState<Candidate | null>(null);
  const [loaded] = useLoad(
    (signal) =>
      fetchCandidates(
        projectId,
        { iteration: iterationId, ordering, page, page_size: PAGE_SIZE },
        signal,
      ),
    [projectId, iterationId, ordering, page, refreshKey],
  );

  /** The server sorts `field` best first and `-field` worst first. */
  const sortBy = (field: CandidateOrdering) => {
    setOrdering(ordering === field ? `-${field}` : field);
    setPage(1);
  };

  if (loaded.state === "loading") return <p aria-busy="true">Loading candidates…</p>;
  if (loaded.state === "failed") {
    return <p className="muted">{loaded.status === 404 ? "No tuning run yet." : loaded.message}</p>;
  }
  const data: CandidatePage = loaded.data;
  const run = data.run;
  const varied = run.varied_settings;
  const incumbent = run.incumbent;
  const inUseParams = incumbent?.params ?? null;
  // Once one of the run's candidates is promoted, that row is marked, not the earlier proposal.
  const promoted = run.promoted_candidate;
  const proposed = promoted === null ? run.proposal?.id : undefined;
  const pages = Math.max(1, Math.ceil(data.count / PAGE_SIZE));
  // The recalibrated incumbent differs from the parameters in use by its learned decision only.
  const changes = (candidate: Candidate) =>
    run.proposal_recalibrates && candidate.id === run.proposal?.id
      ? [`calibration refitted on ${counted(run.gold_documents.length, "gold document")}`]
      : differences(candidate.params, inUseParams, varied).map(differenceText);
  const promoteButton = (candidate: Candidate) =>
    onPromote && (
      <button
        type="button"
        onClick={() => setConfirming(candidate)}
        aria-label={`Promote candidate ranked ${candidate.rank ?? "unranked"} (setting ${candidate.index})`}
      >
        Promote…
      </button>
    );
  const figureHeaders = (
    <>
      <th scope="col">Segment %</th>
      <th scope="col">Word %</th>
      <th scope="col">WindowDiff %</th>
      <th scope="col">Documents</th>
    </>
  );

  return (
    <div className="candidates">
      <p className="muted">
        Tuning run {run.id}: {counted(run.settings_count, "setting")} on{" "}
        {counted(run.gold_documents.length, "gold document")}, ranked by the {run.ranked_by_label};
        job {run.job.status}
        {run.job.status === "running" && ` (${Math.round(run.job.progress * 100)}%)`}. Figures are
        over all the gold scored; ± is their standard deviation across its documents.
      </p>
      <table className="lead-table" aria-label="Parameters in use and proposal">
        <thead>
          <tr>
            <th scope="col">Candidate</th>
            {figureHeaders}
            <th scope="col">Differs from the parameters in use</th>
            {onPromote && (
              <th scope="col">
                <span className="visually-hidden">Promote</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {incumbent ? (
            <tr data-testid="decision-incumbent">
              <th scope="row">In use: {run.incumbent_name}</th>
              <Figures candidate={incumbent} spread={incumbent.spread} />
              <td>—</td>
              {onPromote && <td />}
            </tr>
          ) : (
            <tr>
              <th scope="row">In use: {run.incumbent_name || "nothing"}</th>
              <td colSpan={onPromote ? 6 : 5}>{run.incumbent_note || "not scored by this run"}</td>
            </tr>
          )}
          {run.proposal ? (
            <tr data-testid="decision-proposal">
              <th scope="row">
                {run.proposal_recalibrates
                  ? "Proposal: the parameters in use, recalibrated"
                  : `Proposal (rank ${run.proposal.rank ?? "—"})`}
                {promoted === run.proposal.id && ", promoted"}
              </th>
              <Figures candidate={run.proposal} spread={run.proposal.spread} />
              <td>{changes(run.proposal).join("; ") || "nothing"}</td>
              {onPromote && <td>{promoted !== run.proposal.id && promoteButton(run.proposal)}</td>}
            </tr>
          ) : (
            <tr data-testid="decision-proposal">
              <th scope="row">Proposal</th>
              <td colSpan={onPromote ? 6 : 5}>
                {run.job.status === "succeeded"
                  ? `none: ${run.proposal_note || "no candidate beats the parameters in use on this gold"}`
                  : "none yet: the run is not finished"}
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <table className="lead-table" aria-label="Tuning candidates">
        <thead>
          <tr>
            {SORTABLE.slice(0, 1).map((column) => (
              <SortHeader key={column.field} column={column} ordering={ordering} onSort={sortBy} />
            ))}
            <th scope="col">Differs from the parameters in use</th>
            {SORTABLE.slice(1).map((column) => (
              <SortHeader key={column.field} column={column} ordering={ordering} onSort={sortBy} />
            ))}
            <th scope="col">Gain over in use (95% interval)</th>
            {onPromote && (
              <th scope="col">
                <span className="visually-hidden">Promote</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {tiedGroups(data.results).map((group) => {
            const first = group[0]!;
            const last = group[group.length - 1]!;
            const marks = group.flatMap((candidate) => [
              ...(candidate.id === promoted ? [" (promoted)"] : []),
              ...(candidate.id === proposed ? [" (proposed)"] : []),
              ...(candidate.is_incumbent ? [` (in use: ${run.incumbent_name})`] : []),
            ]);
            return (
              <tr
                key={first.id}
                data-testid="candidate"
                className={
                  group.some((candidate) => candidate.id === promoted)
                    ? "promoted"
                    : group.some((candidate) => candidate.id === proposed)
                      ? "proposal"
                      : group.some((candidate) => candidate.is_incumbent)
                        ? "incumbent"
                        : undefined
                }
              >
                <td>
                  {first.rank ?? "—"}
                  {group.length > 1 && last.rank !== first.rank && `–${last.rank ?? "—"}`}
                  {marks.join("")}
                </td>
                <td data-testid="varied">
                  {group.length === 1 ? (
                    changes(first).join("; ") || "nothing"
                  ) : (
                    <TiedGroup
                      changes={group.map((candidate) =>
                        candidate.is_incumbent
                          ? [...changes(candidate), "(in use)"]
                          : changes(candidate),
                      )}
                    />
                  )}
                </td>
                <Figures candidate={first} spread={first.spread} />
                <td className="number" data-testid="gain">
                  {gainOf(first)}
                </td>
                {onPromote && (
                  <td>{first.id !== promoted && !first.is_incumbent && promoteButton(first)}</td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
      {pages > 1 && (
        <p className="pager">
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </button>{" "}
          page {page} of {pages}{" "}
          <button type="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Next
          </button>
        </p>
      )}
      {onPromote && (
        <ConfirmDialog
          open={confirming !== null}
          title={`Promote the candidate ranked ${confirming?.rank ?? "—"}?`}
          confirmLabel="Promote it"
          keepLabel="Keep the parameters in use"
          onClose={() => setConfirming(null)}
          onConfirm={() => confirming && onPromote(confirming)}
        >
          {confirming && (
            <>
              <p>
                The project&apos;s next pre-alignments will use it instead of{" "}
                {run.incumbent_name || "the parameters in use"}. It differs in:{" "}
                {changes(confirming).join("; ") || "nothing"}.
              </p>
              <p>
                On this gold: segment {percent(confirming.segment_accuracy)}, word{" "}
                {percent(confirming.word_accuracy)}
                {incumbent &&
                  ` (in use: segment ${percent(incumbent.segment_accuracy)}, word ${percent(incumbent.word_accuracy)})`}
                .
              </p>
            </>
          )}
        </ConfirmDialog>
      )}
    </div>
  );
}

/** Tied settings as one cell: what they all change, then what tells each apart. */
function TiedGroup({ changes }: { changes: string[][] }) {
  const common = changes[0]!.filter((change) => changes.every((other) => other.includes(change)));
  return (
    <details>
      <summary>
        {counted(changes.length, "setting")} tie on these figures
        {common.length > 0 && `: ${common.join("; ")}`}
      </summary>
      <ul className="tied-settings">
        {changes.map((own, index) => (
          <li key={index}>
            {own.filter((change) => !common.includes(change)).join("; ") || "nothing else"}
          </li>
        ))}
      </ul>
    </details>
  );
}

function SortHeader({
  column,
  ordering,
  onSort,
}: {
  column: (typeof SORTABLE)[number];
  ordering: string;
  onSort: (field: CandidateOrdering) => void;
}) {
  const bestFirst = column.higherIsBetter ? "descending" : "ascending";
  const worstFirst = column.higherIsBetter ? "ascending" : "descending";
  const sorted =
    ordering === column.field ? bestFirst : ordering === `-${column.field}` ? worstFirst : "none";
  return (
    <th scope="col" aria-sort={sorted}>
      <button type="button" className="sort-button" onClick={() => onSort(column.field)}>
        {column.label}
        {sorted === "ascending" ? " ▲" : sorted === "descending" ? " ▼" : ""}
      </button>
    </th>
  );
}

const signed = (value: number) => `${value >= 0 ? "+" : "−"}${Math.abs(value).toFixed(1)}`;

/** A candidate's gain over the parameters in use on the same gold, in points of the run's
 * objective, with its bootstrap interval over the gold documents: a proposal's lower bound is
 * above 0. A dash for the incumbent and candidates not scored on all the gold. */
function gainOf(candidate: Candidate): string {
  const { gain, gain_low: low, gain_high: high } = candidate;
  if (gain === null || low === null || high === null) return "—";
  return `${signed(gain)} (${signed(low)} to ${signed(high)})`;
}
