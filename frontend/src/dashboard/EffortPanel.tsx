import { duration } from "../lead/format";
import type { EffortRow } from "./api";
import { BarChart, type BarGroup } from "./charts/BarChart";

function byIteration(rows: EffortRow[], value: (row: EffortRow) => number): BarGroup[] {
  const groups = new Map<number, BarGroup>();
  for (const row of rows) {
    const group = groups.get(row.number) ?? { label: `#${row.number}`, bars: [] };
    group.bars.push({ series: row.username, value: value(row) });
    groups.set(row.number, group);
  }
  return [...groups.values()];
}

/** Turns changed and time per document, per annotator and iteration: fewer as tuning helps. */
export function EffortPanel({ rows }: { rows: EffortRow[] }) {
  return (
    <section aria-labelledby="effort-heading" className="dashboard-panel">
      <h2 id="effort-heading">Annotator effort</h2>
      {rows.length === 0 ? (
        <p>No annotation yet.</p>
      ) : (
        <>
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
                <th scope="col">Time</th>
                <th scope="col">Per document</th>
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
                  <td className="number">{duration(row.seconds_spent)}</td>
                  <td className="number">{duration(row.seconds_per_document)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
