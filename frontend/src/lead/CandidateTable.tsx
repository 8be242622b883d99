import { useState } from "react";
import { fetchCandidates, type Candidate, type CandidateOrdering, type CandidatePage } from "./api";
import { alignmentOf, percent, scoringOf, windowOf } from "./format";
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

  const sortBy = (field: CandidateOrdering, higherIsBetter: boolean) => {
    const best = higherIsBetter ? `-${field}` : field;
    const worst = higherIsBetter ? field : `-${field}`;
    setOrdering(ordering === best ? worst : best);
    setPage(1);
  };

  if (loaded.state === "loading") return <p aria-busy="true">Loading candidates…</p>;
  if (loaded.state === "failed") {
    return <p className="muted">{loaded.status === 404 ? "No tuning run yet." : loaded.message}</p>;
  }
  const data: CandidatePage = loaded.data;
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
            <th scope="col">Window (size / overlap)</th>
            <th scope="col">Scoring</th>
            <th scope="col">Alignment</th>
            {SORTABLE.slice(1).map((column) => (
              <SortHeader key={column.field} column={column} ordering={ordering} onSort={sortBy} />
            ))}
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
              className={candidate.id === data.run.proposal?.id ? "proposal" : undefined}
            >
              <td>
                {candidate.rank ?? "—"}
                {candidate.id === data.run.proposal?.id && " (proposed)"}
              </td>
              <td>{windowOf(candidate.params)}</td>
              <td>{scoringOf(candidate.params)}</td>
              <td>{alignmentOf(candidate.params)}</td>
              <td className="number">{percent(candidate.segment_accuracy)}</td>
              <td className="number">{percent(candidate.word_accuracy)}</td>
              <td className="number">{percent(candidate.window_diff)}</td>
              <td className="number">{candidate.documents_evaluated}</td>
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
  onSort: (field: CandidateOrdering, higherIsBetter: boolean) => void;
}) {
  const sorted =
    ordering === column.field
      ? "ascending"
      : ordering === `-${column.field}`
        ? "descending"
        : "none";
  return (
    <th scope="col" aria-sort={sorted}>
      <button
        type="button"
        className="sort-button"
        onClick={() => onSort(column.field, column.higherIsBetter)}
      >
        {column.label}
        {sorted === "ascending" ? " ▲" : sorted === "descending" ? " ▼" : ""}
      </button>
    </th>
  );
}
