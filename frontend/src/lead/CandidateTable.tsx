import { useState } from "react";
import {
  fetchAligners,
  fetchCandidates,
  type Candidate,
  type CandidateOrdering,
  type CandidatePage,
} from "./api";
import { alignmentOf, percent, scoringOf, variedOf, windowOf } from "./format";
import { useLoad } from "./useLoad";

const PAGE_SIZE = 20;

const SORTABLE: { field: CandidateOrdering; label: string; higherIsBetter: boolean }[] = [
  { field: "rank", label: "Rank", higherIsBetter: false },
  { field: "segment_accuracy", label: "Segment %", higherIsBetter: true },
  { field: "word_accuracy", label: "Word %", higherIsBetter: true },
  { field: "window_diff", label: "WindowDiff %", higherIsBetter: false },
  { field: "documents_evaluated", label: "Documents", higherIsBetter: true },
];

/**
 * A tuning run's candidates, as the paper's Table 1, sorted by the server (the run can hold
 * hundreds of settings): click a column to sort by it, again to reverse. The first click
 * puts the best first.
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
  const [ordering, setOrdering] = useState("rank");
  const [page, setPage] = useState(1);
  const [loaded] = useLoad(
    (signal) =>
      fetchCandidates(
        projectId,
        { iteration: iterationId, ordering, page, pageSize: PAGE_SIZE },
        signal,
      ),
    [projectId, iterationId, ordering, page, refreshKey],
  );
  const [schema] = useLoad(fetchAligners, []);
  const aligners = schema.state === "ready" ? schema.data : [];

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
  const varied = data.run.varied_settings;
  // Once one of the run's candidates is promoted, that row is marked, not the earlier proposal.
  const promoted = data.run.promoted_candidate;
  const proposed = promoted === null ? data.run.proposal?.id : undefined;
  const pages = Math.max(1, Math.ceil(data.count / PAGE_SIZE));
  return (
    <div className="candidates">
      <p className="muted">
        Tuning run {data.run.id}: {data.run.settings_count} settings on{" "}
        {data.run.gold_documents.length} gold documents, ranked by the {data.run.ranked_by_label};
        job {data.run.job.status}
        {data.run.job.status === "running" && ` (${Math.round(data.run.job.progress * 100)}%)`}.
      </p>
      <table className="lead-table" aria-label="Tuning candidates">
        <thead>
          <tr>
            {SORTABLE.slice(0, 1).map((column) => (
              <SortHeader key={column.field} column={column} ordering={ordering} onSort={sortBy} />
            ))}
            {varied.length > 0 && <th scope="col">Varied by the grid</th>}
            <th scope="col">Window (size / overlap)</th>
            <th scope="col">Scoring</th>
            <th scope="col">Alignment</th>
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
          {data.results.map((candidate) => (
            <tr
              key={candidate.id}
              data-testid="candidate"
              className={
                candidate.id === promoted
                  ? "promoted"
                  : candidate.id === proposed
                    ? "proposal"
                    : candidate.is_incumbent
                      ? "incumbent"
                      : undefined
              }
            >
              <td>
                {candidate.rank ?? "—"}
                {candidate.id === promoted && " (promoted)"}
                {candidate.id === proposed && " (proposed)"}
                {candidate.is_incumbent && ` (in use: ${data.run.incumbent_name})`}
              </td>
              {varied.length > 0 && (
                <td data-testid="varied">{variedOf(candidate.params, varied, aligners)}</td>
              )}
              <td>{windowOf(candidate.params)}</td>
              <td>{scoringOf(candidate.params)}</td>
              <td>{alignmentOf(candidate.params, aligners, varied)}</td>
              <td className="number">{percent(candidate.segment_accuracy)}</td>
              <td className="number">{percent(candidate.word_accuracy)}</td>
              <td className="number">{percent(candidate.window_diff)}</td>
              <td className="number">{candidate.documents_evaluated}</td>
              <td className="number" data-testid="gain">
                {gainOf(candidate)}
              </td>
              {onPromote && (
                <td>
                  <button
                    type="button"
                    onClick={() => onPromote(candidate)}
                    aria-label={`Promote candidate ranked ${candidate.rank ?? "unranked"} (setting ${candidate.index})`}
                  >
                    Promote
                  </button>
                </td>
              )}
            </tr>
          ))}
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
    </div>
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
