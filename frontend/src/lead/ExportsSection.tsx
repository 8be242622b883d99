import { useState } from "react";
import { apiRequest } from "../api/client";
import type { Schema } from "../api/schema";
import { useProject } from "./ProjectContext";
import { useLoad } from "../components/useLoad";

type ExportPreview = Schema<"ExportPreview">;

/** The files a corpus export writes (docs/exports.md), each with what it is for; the pair
 * formats take the filters above, the public_meetings layout is the whole project and takes
 * none (the server refuses a parameter it does not take). */
const FORMATS = [
  {
    file: "pairs.jsonl",
    label: "Pairs, JSON lines",
    what: "one summarization pair a line",
    filtered: true,
  },
  {
    file: "pairs.csv",
    label: "Pairs, CSV",
    what: "for spreadsheets (cells neutralised)",
    filtered: true,
  },
  {
    file: "parallel.zip",
    label: "Parallel text",
    what: "source and target files per split",
    filtered: true,
  },
  {
    file: "huggingface.zip",
    label: "Hugging Face dataset",
    what: "splits and a dataset card",
    filtered: true,
  },
  {
    file: "public-meetings.json",
    label: "public_meetings layout",
    what: "the whole project, gold and pre-alignments, to re-import or evaluate; the filters do not apply",
    filtered: false,
  },
] as const;

interface Filters {
  include_automatic: boolean;
  min_confidence: string;
}

/** The filters as the export endpoints read them (the field is empty while being typed). */
function exportQuery(filters: Filters) {
  return {
    include_automatic: filters.include_automatic,
    min_confidence: Number(filters.min_confidence || "0"),
  };
}

function query(filters: Filters): string {
  const { include_automatic, min_confidence } = exportQuery(filters);
  const params = new URLSearchParams({
    include_automatic: String(include_automatic),
    min_confidence: String(min_confidence),
  });
  return params.toString();
}

/** The gold corpus as an export would write it: the counts each filter leaves, the splits,
 * and a download per format with the same filters. */
export function ExportsSection() {
  const { project } = useProject();
  const [filters, setFilters] = useState<Filters>({
    include_automatic: false,
    min_confidence: "0.9",
  });
  const base = `/api/v1/projects/${project.id}/exports/`;
  const [loaded] = useLoad(
    (signal) =>
      apiRequest("GET", "projects/{project_id}/exports/preview/", {
        path: { project_id: project.id },
        query: exportQuery(filters),
        signal,
      }),
    [project.id, filters.include_automatic, filters.min_confidence],
  );

  return (
    <section className="lead-section" aria-labelledby="exports-heading">
      <h2 id="exports-heading">Export the corpus</h2>
      <fieldset className="inline-form">
        <legend>Pairs</legend>
        <label>
          <input
            type="checkbox"
            checked={filters.include_automatic}
            onChange={(event) =>
              setFilters({ ...filters, include_automatic: event.target.checked })
            }
          />{" "}
          include automatic pairs (documents without gold)
        </label>{" "}
        <label htmlFor="min-confidence">with confidence at least</label>{" "}
        <input
          id="min-confidence"
          type="number"
          min={0}
          max={1}
          step={0.05}
          size={5}
          value={filters.min_confidence}
          disabled={!filters.include_automatic}
          onChange={(event) => setFilters({ ...filters, min_confidence: event.target.value })}
        />
      </fieldset>
      {loaded.state === "loading" && <p aria-busy="true">Counting pairs…</p>}
      {loaded.state === "failed" && (
        <p role="alert" className="error">
          {loaded.message}
        </p>
      )}
      {loaded.state === "ready" && <PreviewTables preview={loaded.data} />}
      <h3>Download</h3>
      <ul className="plain-list" aria-label="Export formats">
        {FORMATS.map((format) => (
          <li key={format.file}>
            <a
              href={
                format.filtered ? `${base}${format.file}?${query(filters)}` : base + format.file
              }
              download
            >
              {format.label}
            </a>{" "}
            <span className="muted">
              ({format.file}: {format.what})
            </span>
          </li>
        ))}
      </ul>
      {project.kind === "podcast" && (
        <p>
          <a href={`${base}salience.jsonl`} download>
            Salience labels, JSON lines
          </a>{" "}
          (
          <a href={`${base}salience.jsonl?candidates_only=true`} download>
            candidate windows only
          </a>
          ){" "}
          <span className="muted">
            (salience.jsonl: each window with its ROUGE-2 score against the description, the
            automatic label and the gold label)
          </span>
        </p>
      )}
      {project.kind === "talk" && (
        <p>
          <a href={`${base}summaries.jsonl`} download>
            Summaries, JSON lines
          </a>{" "}
          <span className="muted">
            (summaries.jsonl: each paper&apos;s sentences ranked by importance, and TalkSumm&apos;s
            summaries at 150 and 250 words and 0.3 and 0.4 of the paper)
          </span>
        </p>
      )}
    </section>
  );
}

function PreviewTables({ preview }: { preview: ExportPreview }) {
  return (
    <>
      <table className="lead-table compact" aria-label="Pairs per filter">
        <thead>
          <tr>
            <th scope="col">Step</th>
            <th scope="col">Removed</th>
            <th scope="col">Pairs left</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">
              All pairs ({preview.documents.gold} gold, {preview.documents.automatic} automatic
              documents)
            </th>
            <td className="number">—</td>
            <td className="number">{preview.pairs_before_filters.total}</td>
          </tr>
          {preview.filters.map((step) => (
            <tr key={step.filter}>
              <th scope="row">
                {step.filter.replaceAll("_", " ")} {step.value}
              </th>
              <td className="number">{step.removed}</td>
              <td className="number">{step.kept}</td>
            </tr>
          ))}
          <tr>
            <th scope="row">Exported</th>
            <td className="number">—</td>
            <td className="number" data-testid="exported-pairs">
              {preview.pairs.total} ({preview.pairs.gold} gold, {preview.pairs.automatic} automatic)
            </td>
          </tr>
        </tbody>
      </table>
      <table className="lead-table compact" aria-label="Splits">
        <thead>
          <tr>
            <th scope="col">Split</th>
            <th scope="col">Meetings</th>
            <th scope="col">Pairs</th>
          </tr>
        </thead>
        <tbody>
          {(["train", "validation", "test"] as const).map((split) => (
            <tr key={split}>
              <th scope="row">{split}</th>
              <td className="number">{preview.splits[split].meetings}</td>
              <td className="number">{preview.splits[split].pairs}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {preview.salience && <SalienceCounts counts={preview.salience} />}
      <p data-testid="rating-estimate">
        {preview.rating === null
          ? "No rating study has judged the automatic pairs yet."
          : preview.rating.estimated_yes_share === null
            ? `Rating study “${preview.rating.name}” rated no automatic pair at this confidence.`
            : `Rating study “${preview.rating.name}” estimates ${(
                100 * preview.rating.estimated_yes_share
              ).toFixed(1)} % of automatic pairs at confidence ≥ ${
                preview.rating.min_confidence
              } are good (${preview.rating.rated_pairs} rated pairs).`}
      </p>
    </>
  );
}

function SalienceCounts({ counts }: { counts: NonNullable<ExportPreview["salience"]> }) {
  const percent = (ratio: number | null) =>
    ratio === null ? "no unit" : `${(100 * ratio).toFixed(1)} %`;
  return (
    <p data-testid="salience-ratio">
      Salience labels: {counts.automatic_positive} of {counts.units} windows salient by the ROUGE
      rule ({percent(counts.positive_ratio)}; among the {counts.candidates} candidate windows,{" "}
      {percent(counts.candidate_positive_ratio)}); {counts.gold_positive} of {counts.gold_units}{" "}
      gold windows aligned.
    </p>
  );
}
