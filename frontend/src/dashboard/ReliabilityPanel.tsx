import type { IterationAccuracy } from "../api/dashboards";
import { colourOf } from "../components/charts/palette";
import "../components/charts/charts.css";

const SIZE = 240;
const MARGIN = 28;
const PLOT = SIZE - 2 * MARGIN;

const x = (value: number) => MARGIN + value * PLOT;
const y = (value: number) => SIZE - MARGIN - value * PLOT;
const share = (value: number | null) => (value === null ? "—" : `${(100 * value).toFixed(1)}%`);

/** Calibration says whether 0.6 means six in ten; the AUROC says whether the confidence puts
 * the turns to correct first at all (0.5: no better than chance), which a lead needs to
 * trust the editor's low-confidence marks. */
export function reliabilitySummary(reliability: IterationAccuracy["reliability"]): string {
  const error = `calibration error ${share(reliability.expected_calibration_error)}`;
  return reliability.auroc === null ? error : `${error}, AUROC ${reliability.auroc.toFixed(2)}`;
}

/** Does a pre-alignment's confidence mean what it says? Per closed iteration, each bin's mean
 * confidence against the share of its turns the gold kept: on the diagonal, a lead can read
 * 0.6 as "six in ten such turns are right". */
export function ReliabilityPanel({ iterations }: { iterations: IterationAccuracy[] }) {
  const measured = iterations.filter((row) => row.reliability.turns > 0);
  return (
    <section aria-labelledby="reliability-heading" className="dashboard-panel">
      <h2 id="reliability-heading">Reliability of the pre-alignment's confidence</h2>
      {measured.length === 0 ? (
        <p>No closed iteration with confidences yet.</p>
      ) : (
        <>
          <svg
            className="chart reliability"
            viewBox={`0 0 ${SIZE} ${SIZE}`}
            role="img"
            aria-label="Observed share of turns right against the confidence, per iteration"
          >
            <line x1={x(0)} y1={y(0)} x2={x(1)} y2={y(1)} stroke="#9ca3af" strokeDasharray="4 3" />
            <line x1={x(0)} y1={y(0)} x2={x(1)} y2={y(0)} stroke="#6b7280" />
            <line x1={x(0)} y1={y(0)} x2={x(0)} y2={y(1)} stroke="#6b7280" />
            <text x={x(0.5)} y={SIZE - 8} textAnchor="middle" className="axis-label">
              confidence
            </text>
            <text
              x={14}
              y={y(0.5)}
              textAnchor="middle"
              className="axis-label"
              transform={`rotate(-90 14 ${y(0.5)})`}
            >
              observed
            </text>
            {measured.map((row, index) => (
              <g key={row.iteration} fill={colourOf(index)} stroke={colourOf(index)}>
                <polyline
                  fill="none"
                  points={row.reliability.bins
                    .map((bin) => `${x(bin.predicted)},${y(bin.observed)}`)
                    .join(" ")}
                />
                {row.reliability.bins.map((bin) => (
                  <circle key={bin.low} cx={x(bin.predicted)} cy={y(bin.observed)} r={3}>
                    <title>{`#${row.number}: ${bin.count} turns, confidence ${share(bin.predicted)}, right ${share(bin.observed)}`}</title>
                  </circle>
                ))}
              </g>
            ))}
          </svg>
          <table
            className="lead-table compact"
            aria-label="Reliability per iteration and bin"
            data-testid="reliability-table"
          >
            <thead>
              <tr>
                <th scope="col">Iteration</th>
                <th scope="col">Confidence bin</th>
                <th scope="col">Mean confidence</th>
                <th scope="col">Turns right</th>
                <th scope="col">Turns</th>
              </tr>
            </thead>
            <tbody>
              {measured.flatMap((row) =>
                row.reliability.bins.map((bin, position) => (
                  <tr key={`${row.iteration}-${bin.low}`}>
                    <th scope="row">
                      {position === 0
                        ? `#${row.number} (${reliabilitySummary(row.reliability)})`
                        : ""}
                    </th>
                    <td>
                      {bin.low.toFixed(1)}–{bin.high.toFixed(1)}
                    </td>
                    <td>{share(bin.predicted)}</td>
                    <td>{share(bin.observed)}</td>
                    <td>{bin.count}</td>
                  </tr>
                )),
              )}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
