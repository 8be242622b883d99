import type { Schema } from "../../api/schema";

export interface DistributionRow {
  key: string | number;
  label: string;
  summary: Schema<"Distribution">;
  /** The extra column's cell, when the table has one. */
  extra?: string;
}

/** The figures beneath a box plot: per group, count, mean, median, quartiles and extremes. */
export function DistributionTable({
  label,
  testId,
  rows,
  format,
  extraHeading,
}: {
  label: string;
  testId: string;
  rows: DistributionRow[];
  format: (value: number | null) => string;
  extraHeading?: string;
}) {
  return (
    <table className="lead-table compact" aria-label={label} data-testid={testId}>
      <thead>
        <tr>
          <th scope="col">Iteration</th>
          <th scope="col">Documents</th>
          <th scope="col">Mean</th>
          <th scope="col">Median</th>
          <th scope="col">Q1</th>
          <th scope="col">Q3</th>
          <th scope="col">Min</th>
          <th scope="col">Max</th>
          {extraHeading && <th scope="col">{extraHeading}</th>}
        </tr>
      </thead>
      <tbody>
        {rows.map(({ key, label: rowLabel, summary, extra }) => (
          <tr key={key}>
            <th scope="row">{rowLabel}</th>
            <td className="number">{summary.count}</td>
            <td className="number">{format(summary.mean)}</td>
            <td className="number">{format(summary.median)}</td>
            <td className="number">{format(summary.q1)}</td>
            <td className="number">{format(summary.q3)}</td>
            <td className="number">{format(summary.min)}</td>
            <td className="number">{format(summary.max)}</td>
            {extraHeading && <td className="number">{extra}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
