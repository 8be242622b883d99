import { useState } from "react";
import { duration, percent } from "../text/format";
import type {
  AgreementMeasure,
  AgreementMeasures,
  AnnotatorQuality,
  IterationAgreement,
} from "../api/dashboards";
import { BoxPlot } from "../components/charts/BoxPlot";
import { DistributionTable } from "../components/charts/DistributionTable";
import { coefficientDomain } from "../components/charts/scale";

export const MEASURE_LABELS: Record<AgreementMeasure, string> = {
  turn_agreement: "Observed agreement, turns",
  word_agreement: "Observed agreement, words",
  kappa: "Cohen's kappa",
  alpha: "Krippendorff's alpha",
  unaligned_agreement: "Agreement on unaligned turns",
  windowdiff: "WindowDiff between annotators (lower is better)",
  pk: "Pk between annotators (lower is better)",
};

const COEFFICIENTS: AgreementMeasure[] = ["kappa", "alpha"];

/** A measure's value as the tables show it: coefficients to three decimals, the rest in %. */
export function formatMeasure(measure: AgreementMeasure, value: number | null): string {
  if (value === null) return "—";
  return COEFFICIENTS.includes(measure) ? value.toFixed(3) : percent(value);
}

const AGREEMENT_COLUMNS: [AgreementMeasure, string][] = [
  ["turn_agreement", "Agreement, turns"],
  ["word_agreement", "Agreement, words"],
  ["kappa", "κ"],
  ["alpha", "α"],
  ["unaligned_agreement", "Unaligned agree"],
  ["windowdiff", "WindowDiff"],
  ["pk", "Pk"],
];

function pairRows(iterations: IterationAgreement[]) {
  return iterations.flatMap((row) =>
    row.pairs.map((pair) => ({ number: row.number, iteration: row.iteration, pair })),
  );
}

/** How far annotators agree on documents two or more of them corrected: a box per iteration
 * over the documents, its table, and each pair of annotators' figures per iteration. */
export function AgreementPanel({
  measures,
  iterations,
  annotators,
}: {
  measures: AgreementMeasure[];
  iterations: IterationAgreement[];
  annotators: AnnotatorQuality[];
}) {
  const [measure, setMeasure] = useState<AgreementMeasure>(measures[0] ?? "turn_agreement");
  const coefficient = COEFFICIENTS.includes(measure);
  const title = `${MEASURE_LABELS[measure]} per doubly annotated document, per iteration`;
  const pairs = pairRows(iterations);
  return (
    <section aria-labelledby="agreement-heading" className="dashboard-panel">
      <h2 id="agreement-heading">Agreement between annotators</h2>
      <label htmlFor="agreement-measure">Measure</label>{" "}
      <select
        id="agreement-measure"
        value={measure}
        onChange={(event) => setMeasure(event.target.value as AgreementMeasure)}
      >
        {measures.map((name) => (
          <option key={name} value={name}>
            {MEASURE_LABELS[name]}
          </option>
        ))}
      </select>
      {iterations.every((row) => row.documents.length === 0) ? (
        <p>No document has two annotators' submissions yet.</p>
      ) : (
        <>
          <BoxPlot
            title={title}
            unit={coefficient ? "" : "%"}
            digits={coefficient ? 3 : 1}
            domain={coefficient ? coefficientDomain : undefined}
            groups={iterations.map((row) => ({
              label: `#${row.number}`,
              values: row.documents
                .map((document) => document[measure])
                .filter((value): value is number => value !== null),
              summary: row.summary[measure],
            }))}
          />
          <DistributionTable
            label={title}
            testId="agreement-table"
            format={(value) => formatMeasure(measure, value)}
            extraHeading="Pooled"
            rows={iterations.map((row) => ({
              key: row.iteration,
              label: `#${row.number}`,
              summary: row.summary[measure],
              extra: formatMeasure(measure, row.overall[measure]),
            }))}
          />
          <h3>Per pair of annotators</h3>
          <FiguresTable
            label="Agreement per pair of annotators and iteration"
            testId="agreement-pairs"
            rows={pairs.map(({ iteration, number, pair }) => ({
              key: `${iteration}-${pair.annotators.join("-")}`,
              number,
              who: pair.usernames.join(" & "),
              figures: pair,
            }))}
          />
        </>
      )}
      <h3>Per annotator against the adjudicated gold</h3>
      {annotators.length === 0 ? (
        <p>No submission yet.</p>
      ) : (
        <FiguresTable
          label="Each annotator's agreement with the adjudicated gold, and time per document"
          testId="agreement-annotators"
          rows={annotators.map((row) => ({
            key: `${row.iteration}-${row.annotator}`,
            number: row.number,
            who: row.username,
            figures: row.against_gold,
            extra: `${duration(row.seconds_per_document)} (${row.submitted_documents})`,
          }))}
          extraHeading="Time per document (documents)"
        />
      )}
    </section>
  );
}

export interface FiguresRow {
  key: string;
  number: number;
  who: string;
  /** Null when there is nothing to compare (e.g. no adjudicated document). */
  figures: AgreementMeasures | null;
  extra?: string;
}

/** Every measure of a set of agreement figures, one row per iteration and annotators. */
export function FiguresTable({
  label,
  testId,
  rows,
  extraHeading,
}: {
  label: string;
  testId: string;
  rows: FiguresRow[];
  extraHeading?: string;
}) {
  return (
    <table className="lead-table compact" aria-label={label} data-testid={testId}>
      <thead>
        <tr>
          <th scope="col">Iteration</th>
          <th scope="col">Annotators</th>
          <th scope="col">Documents</th>
          <th scope="col">Turns</th>
          {AGREEMENT_COLUMNS.map(([measure, heading]) => (
            <th scope="col" key={measure}>
              {heading}
            </th>
          ))}
          {extraHeading && <th scope="col">{extraHeading}</th>}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <th scope="row">#{row.number}</th>
            <td>{row.who}</td>
            <td className="number">{row.figures?.documents ?? 0}</td>
            <td className="number">{row.figures?.units ?? 0}</td>
            {AGREEMENT_COLUMNS.map(([measure]) => (
              <td className="number" key={measure}>
                {formatMeasure(measure, row.figures?.[measure] ?? null)}
              </td>
            ))}
            {extraHeading && <td className="number">{row.extra}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
