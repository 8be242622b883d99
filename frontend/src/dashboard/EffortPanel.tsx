import { Fragment, useState } from "react";
import { duration } from "../text/format";
import { useLoad } from "../components/useLoad";
import { fetchDocumentEffort, type EffortRow, type IterationAccuracy } from "../api/dashboards";
import { BarChart, type BarGroup } from "../components/charts/BarChart";
import {
  effortByIteration,
  effortTrend,
  minutes,
  minutesPer100Turns,
  percentOf,
  shareOf,
} from "./effort";

function byIteration(rows: EffortRow[], value: (row: EffortRow) => number): BarGroup[] {
  const groups = new Map<number, BarGroup>();
  for (const row of rows) {
    const group = groups.get(row.number) ?? { label: `#${row.number}`, bars: [] };
    group.bars.push({ series: row.username, value: value(row) });
    groups.set(row.number, group);
  }
  return [...groups.values()];
}

/** One iteration's documents, each with every annotator's effort on it, loaded when a lead
 * opens them: a project's iterations may hold thousands. */
function DocumentEffortTable({
  projectId,
  iterationId,
  number,
}: {
  projectId: number;
  iterationId: number;
  number: number;
}) {
  const [loaded] = useLoad(
    (signal) => fetchDocumentEffort(projectId, iterationId, signal),
    [projectId, iterationId],
  );
  if (loaded.state === "loading") return <p aria-busy="true">Loading the documents…</p>;
  if (loaded.state === "failed") return <p role="alert">{loaded.message}</p>;
  const documents = loaded.data.iterations[0]?.documents ?? [];
  return (
    <table className="lead-table compact" aria-label={`Effort per document, iteration #${number}`}>
      <thead>
        <tr>
          <th scope="col">Document</th>
          <th scope="col">Turns</th>
          <th scope="col">Annotator</th>
          <th scope="col">Turns changed</th>
          <th scope="col">Turns reviewed</th>
          <th scope="col">Of them, spot-checked</th>
          <th scope="col">Accepted without review</th>
          <th scope="col">Active time</th>
          <th scope="col">Submitted</th>
        </tr>
      </thead>
      <tbody>
        {documents.map((document) => {
          const span = Math.max(1, document.annotations.length);
          const heading = (
            <>
              <th scope="row" rowSpan={span}>
                {document.name}
              </th>
              <td className="number" rowSpan={span}>
                {document.turns}
              </td>
            </>
          );
          if (document.annotations.length === 0) {
            return (
              <tr key={document.document} data-testid="document-effort">
                {heading}
                <td colSpan={7} className="muted">
                  not opened yet
                </td>
              </tr>
            );
          }
          return document.annotations.map((annotation, index) => (
            <tr key={`${document.document}-${annotation.annotator}`} data-testid="document-effort">
              {index === 0 && heading}
              <td>{annotation.username}</td>
              <td className="number">{annotation.turns_changed}</td>
              <td className="number">{annotation.turns_reviewed}</td>
              <td className="number">{annotation.turns_spot_checked}</td>
              <td className="number">{annotation.turns_accepted_without_review}</td>
              <td className="number">{duration(annotation.seconds_spent)}</td>
              <td>{annotation.submitted ? "yes" : "not yet"}</td>
            </tr>
          ));
        })}
      </tbody>
    </table>
  );
}

/** Turns changed, reviewed (and of them spot-checked), accepted unread and time, per
 * iteration beside the pre-alignment's accuracy (each iteration's documents one click away)
 * and per annotator: fewer as tuning helps. */
export function EffortPanel({
  projectId,
  rows,
  accuracy,
}: {
  projectId: number;
  rows: EffortRow[];
  accuracy: IterationAccuracy[];
}) {
  const [opened, setOpened] = useState<ReadonlySet<number>>(new Set());
  const toggle = (iteration: number) =>
    setOpened((current) => {
      const next = new Set(current);
      if (!next.delete(iteration)) next.add(iteration);
      return next;
    });
  const iterations = effortByIteration(rows);
  const trend = effortTrend(iterations);
  const accuracyOf = new Map(
    accuracy.map((iteration) => [iteration.number, iteration.summary.human_turn_accuracy.mean]),
  );
  return (
    <section aria-labelledby="effort-heading" className="dashboard-panel">
      <h2 id="effort-heading">Annotator effort</h2>
      {rows.length === 0 ? (
        <p>No annotation yet.</p>
      ) : (
        <>
          {trend && <p data-testid="effort-trend">{trend}</p>}
          <table className="lead-table compact" aria-label="Effort per iteration">
            <thead>
              <tr>
                <th scope="col">Iteration</th>
                <th scope="col">Documents</th>
                <th scope="col">Turns</th>
                <th scope="col">Turns changed</th>
                <th scope="col">Turns reviewed</th>
                <th scope="col">Of them, spot-checked</th>
                <th scope="col">Accepted without review</th>
                <th scope="col">Active time per 100 turns</th>
                <th scope="col">Pre-alignment accuracy (turns)</th>
                <th scope="col">
                  <span className="visually-hidden">Documents</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {iterations.map((iteration) => {
                const accuracyMean = accuracyOf.get(iteration.number);
                const open = opened.has(iteration.iteration);
                const panel = `effort-documents-${iteration.iteration}`;
                return (
                  <Fragment key={iteration.number}>
                    <tr>
                      <th scope="row">#{iteration.number}</th>
                      <td className="number">{iteration.documents}</td>
                      <td className="number">{iteration.turns}</td>
                      <td className="number">{percentOf(iteration.changedShare)}</td>
                      <td className="number">{percentOf(iteration.reviewedShare)}</td>
                      <td className="number">{percentOf(iteration.spotCheckedShare)}</td>
                      <td className="number">{percentOf(iteration.acceptedShare)}</td>
                      <td className="number">{minutes(iteration.minutesPer100Turns)}</td>
                      <td className="number">
                        {accuracyMean === null || accuracyMean === undefined
                          ? "—"
                          : `${accuracyMean.toFixed(1)} %`}
                      </td>
                      <td>
                        <button
                          type="button"
                          aria-expanded={open}
                          aria-controls={open ? panel : undefined}
                          onClick={() => toggle(iteration.iteration)}
                        >
                          <span aria-hidden="true">{open ? "▾ " : "▸ "}</span>
                          Per document
                          <span className="visually-hidden"> of iteration #{iteration.number}</span>
                        </button>
                      </td>
                    </tr>
                    {open && (
                      <tr id={panel}>
                        <td colSpan={10}>
                          <DocumentEffortTable
                            projectId={projectId}
                            iterationId={iteration.iteration}
                            number={iteration.number}
                          />
                        </td>
                      </tr>
                    )}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
          <div className="chart-pair">
            <BarChart
              title="Turns changed per document, per annotator and iteration"
              yUnit="turns"
              xLabel="iteration"
              groups={byIteration(rows, (row) => row.turns_changed_per_document)}
              format={(value) => value.toFixed(value < 10 && value % 1 ? 1 : 0)}
            />
            <BarChart
              title="Time per document, per annotator and iteration"
              yUnit="minutes"
              xLabel="iteration"
              groups={byIteration(rows, (row) => row.seconds_per_document / 60)}
              format={(value) => `${value.toFixed(value < 10 && value % 1 ? 1 : 0)} min`}
            />
          </div>
          <table className="lead-table compact" aria-label="Annotator effort">
            <thead>
              <tr>
                <th scope="col">Iteration</th>
                <th scope="col">Annotator</th>
                <th scope="col">Documents (submitted)</th>
                <th scope="col">Turns changed</th>
                <th scope="col">Per document</th>
                <th scope="col">Share changed</th>
                <th scope="col">Share reviewed</th>
                <th scope="col">Time</th>
                <th scope="col">Per document</th>
                <th scope="col">Per 100 turns</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={`${row.iteration}-${row.annotator}`}>
                  <th scope="row">#{row.number}</th>
                  <td>{row.username}</td>
                  <td className="number">
                    {row.document_count} ({row.submitted_count})
                  </td>
                  <td className="number">{row.turns_changed}</td>
                  <td className="number">{row.turns_changed_per_document.toFixed(1)}</td>
                  <td className="number">{percentOf(shareOf(row.turns_changed, row.turns))}</td>
                  <td className="number">{percentOf(shareOf(row.turns_reviewed, row.turns))}</td>
                  <td className="number">{duration(row.seconds_spent)}</td>
                  <td className="number">{duration(row.seconds_per_document)}</td>
                  <td className="number">
                    {minutes(minutesPer100Turns(row.seconds_spent, row.turns))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
