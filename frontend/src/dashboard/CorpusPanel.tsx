import type { CorpusGrowth } from "../api/dashboards";
import { LineChart } from "../components/charts/LineChart";

/** Gold pairs and trusted automatic pairs as each iteration closed, and now. */
export function CorpusPanel({ growth }: { growth: CorpusGrowth }) {
  const points = [
    ...growth.iterations.map((row) => ({ label: `#${row.number}`, ...row })),
    { label: "now", ...growth.now },
  ];
  return (
    <section aria-labelledby="corpus-heading" className="dashboard-panel">
      <h2 id="corpus-heading">Corpus growth</h2>
      <LineChart
        title="Gold pairs and trusted automatic pairs, at each iteration's close and now"
        labels={points.map((point) => point.label)}
        series={[
          { name: "gold pairs", values: points.map((point) => point.gold_pairs) },
          { name: "trusted automatic pairs", values: points.map((point) => point.trusted_pairs) },
        ]}
      />
      <table className="lead-table compact" aria-label="Corpus growth">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Gold documents</th>
            <th scope="col">Gold pairs</th>
            <th scope="col">Automatic documents</th>
            <th scope="col">Trusted automatic pairs</th>
          </tr>
        </thead>
        <tbody>
          {points.map((point) => (
            <tr key={point.label}>
              <th scope="row">{point.label === "now" ? "now" : `closing ${point.label}`}</th>
              <td className="number">{point.gold_documents}</td>
              <td className="number">{point.gold_pairs}</td>
              <td className="number">{point.automatic_documents}</td>
              <td className="number">{point.trusted_pairs}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
