import { duration } from "../text/format";
import type { EffortRow, IterationAccuracy } from "../api/dashboards";
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

/** Turns changed, reviewed and time, per iteration beside the pre-alignment's accuracy and
 * per annotator: fewer as tuning helps. */
export function EffortPanel({
  rows,
  accuracy,
}: {
  rows: EffortRow[];
  accuracy: IterationAccuracy[];
}) {
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
                <th scope="col">Active time per 100 turns</th>
                <th scope="col">Pre-alignment accuracy (turns)</th>
              </tr>
            </thead>
            <tbody>
              {iterations.map((iteration) => {
                const accuracyMean = accuracyOf.get(iteration.number);
                return (
                  <tr key={iteration.number}>
                    <th scope="row">#{iteration.number}</th>
                    <td className="number">{iteration.documents}</td>
                    <td className="number">{iteration.turns}</td>
                    <td className="number">{percentOf(iteration.changedShare)}</td>
                    <td className="number">{percentOf(iteration.reviewedShare)}</td>
                    <td className="number">{minutes(iteration.minutesPer100Turns)}</td>
                    <td className="number">
                      {accuracyMean === null || accuracyMean === undefined
                        ? "—"
                        : `${accuracyMean.toFixed(1)} %`}
                    </td>
                  </tr>
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
