import type { Schema } from "../api/schema";
import { useLoad } from "../components/useLoad";
import { fetchSalience } from "../api/dashboards";

type SalienceDashboard = Schema<"SalienceDashboardApiOutput">;
type LabelAgreement = Schema<"LabelAgreement">;

const share = (value: number | null) => (value === null ? "—" : value.toFixed(2));

/** Can the podcast paper's cheap rule (ROUGE-2 recall above a threshold) stand in for the
 * annotators on this project's data? Its labels against the gold's, per iteration. */
export function SaliencePanel({ projectId }: { projectId: number }) {
  const [loaded] = useLoad((signal) => fetchSalience(projectId, signal), [projectId]);
  return (
    <section aria-labelledby="salience-heading" className="dashboard-panel">
      <h2 id="salience-heading">Salience labels: the ROUGE rule against gold</h2>
      {loaded.state === "loading" && <p aria-busy="true">Labelling windows…</p>}
      {loaded.state === "failed" && <p role="alert">{loaded.message}</p>}
      {loaded.state === "ready" && <SalienceTable dashboard={loaded.data} />}
    </section>
  );
}

function SalienceTable({ dashboard }: { dashboard: SalienceDashboard }) {
  const { summary } = dashboard;
  return (
    <>
      <p>
        {summary.automatic_positive} of {summary.units} windows have a ROUGE-2 recall above{" "}
        {dashboard.tau} against some {dashboard.clean_descriptions ? "kept " : ""}description
        sentence; {summary.gold_positive} of {summary.gold_units} gold windows are aligned.
      </p>
      {dashboard.gold_documents === 0 ? (
        <p>No document has gold yet.</p>
      ) : (
        <table className="lead-table compact" aria-label="Salience agreement with gold">
          <thead>
            <tr>
              <th scope="col">Iteration</th>
              <th scope="col">Gold documents</th>
              <th scope="col">Precision</th>
              <th scope="col">Recall</th>
              <th scope="col">F1</th>
            </tr>
          </thead>
          <tbody>
            {dashboard.iterations.map((row) => (
              <AgreementRow
                key={row.iteration ?? "none"}
                label={row.iteration === null ? "outside iterations" : `${row.iteration}`}
                documents={row.documents}
                agreement={row.agreement}
              />
            ))}
            <AgreementRow
              label="all"
              documents={dashboard.gold_documents}
              agreement={dashboard.overall}
            />
          </tbody>
        </table>
      )}
    </>
  );
}

function AgreementRow({
  label,
  documents,
  agreement,
}: {
  label: string;
  documents: number;
  agreement: LabelAgreement;
}) {
  return (
    <tr data-testid={`salience-row-${label}`}>
      <th scope="row">{label}</th>
      <td className="number">{documents}</td>
      <td className="number">{share(agreement.precision)}</td>
      <td className="number">{share(agreement.recall)}</td>
      <td className="number">{share(agreement.f1)}</td>
    </tr>
  );
}
