import { useState } from "react";
import type { AccuracyMetric } from "../lead/api";
import { percent } from "../text/format";
import type { IterationAccuracy } from "../api/dashboards";
import { BoxPlot } from "../components/charts/BoxPlot";
import { DistributionTable } from "../components/charts/DistributionTable";

export const METRIC_LABELS: Record<AccuracyMetric, string> = {
  human_turn_accuracy: "Human-evaluated accuracy, turns",
  human_word_accuracy: "Human-evaluated accuracy, words",
  segment_accuracy: "Segment accuracy",
  word_accuracy: "Word accuracy",
  windowdiff: "WindowDiff (lower is better)",
};

/** The paper's Figure 3 (a box per iteration) over its Table 2 (mean and median). */
export function AccuracyPanel({
  metrics,
  iterations,
}: {
  metrics: AccuracyMetric[];
  iterations: IterationAccuracy[];
}) {
  const [metric, setMetric] = useState<AccuracyMetric>(metrics[0] ?? "human_turn_accuracy");
  const title = `${METRIC_LABELS[metric]} of the pre-alignment, per iteration`;
  return (
    <section aria-labelledby="accuracy-heading" className="dashboard-panel">
      <h2 id="accuracy-heading">Accuracy per iteration</h2>
      <label htmlFor="accuracy-metric">Measure</label>{" "}
      <select
        id="accuracy-metric"
        value={metric}
        onChange={(event) => setMetric(event.target.value as AccuracyMetric)}
      >
        {metrics.map((name) => (
          <option key={name} value={name}>
            {METRIC_LABELS[name]}
          </option>
        ))}
      </select>
      {iterations.length === 0 ? (
        <p>No iteration yet.</p>
      ) : (
        <>
          <BoxPlot
            title={title}
            groups={iterations.map((row) => ({
              label: `#${row.number}`,
              // A document whose WindowDiff is undefined (null) has no point to plot.
              values: row.documents
                .map((document) => document[metric])
                .filter((value): value is number => value !== null),
              summary: row.summary[metric],
            }))}
          />
          <DistributionTable
            label={title}
            testId="accuracy-table"
            format={percent}
            rows={iterations.map((row) => ({
              key: row.iteration,
              label: `#${row.number}`,
              summary: row.summary[metric],
            }))}
          />
        </>
      )}
    </section>
  );
}
