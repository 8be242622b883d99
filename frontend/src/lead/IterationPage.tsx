import { useState } from "react";
import { Link } from "../app/router";
import {
  closeIteration,
  fetchIteration,
  promote,
  restartPreAlignment,
  restartTuning,
  type IterationDetail,
} from "./api";
import { BatchTable } from "./BatchTable";
import { CandidateTable } from "./CandidateTable";
import { CloseIterationForm } from "./CloseIterationForm";
import { describeParams, percent } from "./format";
import { ITERATION_STATUS_TEXT } from "./IterationsSection";
import { JobProgress } from "./JobProgress";
import { PromoteParameterSet } from "./PromoteParameterSet";
import { useProject } from "./ProjectContext";
import { leadProjectPath } from "./routes";
import { messageOf, useLoad } from "./useLoad";

/** Followed until closed: jobs while they run, annotators' progress meanwhile. */
const POLL_MS = 3000;

/** One iteration, past or present: its batch, parameters, scores, tuning and promotion. */
export function IterationPage({ iterationId }: { iterationId: number }) {
  const { project, reload: reloadProject } = useProject();
  const [loaded, reload] = useLoad(
    (signal) => fetchIteration(project.id, iterationId, signal),
    [project.id, iterationId],
    { ms: POLL_MS, while: (it) => it.status !== "closed" },
  );
  const [notice, setNotice] = useState<{ error: boolean; text: string } | null>(null);

  const act = async (action: () => Promise<unknown>, done: string) => {
    setNotice(null);
    try {
      await action();
      setNotice({ error: false, text: done });
      reload();
      reloadProject();
    } catch (reason) {
      setNotice({ error: true, text: messageOf(reason) });
    }
  };

  if (loaded.state === "loading") return <p aria-busy="true">Loading the iteration…</p>;
  if (loaded.state === "failed") {
    return <p role="alert">The iteration could not be loaded: {loaded.message}</p>;
  }
  const iteration: IterationDetail = loaded.data;
  const job = iteration.pre_align_job;
  return (
    <article className="lead-section" aria-labelledby="iteration-heading">
      <p className="breadcrumbs">
        <Link href={leadProjectPath(project.id, "iterations")}>All iterations</Link> ›
      </p>
      <h2 id="iteration-heading">
        Iteration {iteration.number}
        {iteration.name && `: ${iteration.name}`}{" "}
        <span className="status-badge" data-testid="iteration-status">
          {ITERATION_STATUS_TEXT[iteration.status]}
        </span>
      </h2>
      {notice && (
        <p role={notice.error ? "alert" : "status"} className={notice.error ? "error" : "notice"}>
          {notice.text}
        </p>
      )}
      <dl className="facts">
        <dt>Pre-aligned with</dt>
        <dd>
          {iteration.parameters.name ?? "—"}{" "}
          <details>
            <summary>parameters</summary>
            <code>{describeParams(iteration.parameters.params)}</code>
          </details>
        </dd>
        <dt>Pre-alignment</dt>
        <dd>
          {job ? <JobProgress job={job} label="Pre-alignment" /> : "not started"}{" "}
          {job &&
            (job.status === "failed" || job.status === "cancelled") &&
            !iteration.closed_at && (
              <button
                type="button"
                onClick={() =>
                  act(
                    () => restartPreAlignment(project.id, iteration.id),
                    "Pre-alignment restarted.",
                  )
                }
              >
                Pre-align again
              </button>
            )}
        </dd>
      </dl>

      <h3>
        Batch:{" "}
        <span data-testid="batch-progress">
          {submittedCount(iteration)} of {iteration.documents.length} submitted
        </span>
      </h3>
      <BatchTable iteration={iteration} onChanged={reload} />

      {iteration.status === "annotating" && (
        <CloseIterationForm
          number={iteration.number}
          onClose={(options) =>
            act(
              () => closeIteration(project.id, iteration.id, options),
              options.tune
                ? "Closed: accuracy recorded, tuning on all gold so far started."
                : "Closed: accuracy recorded.",
            )
          }
        />
      )}

      {iteration.closed_at && <AccuracySummary iteration={iteration} />}

      {iteration.closed_at && (
        <section aria-labelledby="tuning-heading">
          <h3 id="tuning-heading">Tuning on the gold so far</h3>
          {iteration.tuning ? (
            <>
              <p>
                <JobProgress job={iteration.tuning.job} label="Tuning" />{" "}
                {(iteration.tuning.job.status === "failed" ||
                  iteration.tuning.job.status === "cancelled") && (
                  <button
                    type="button"
                    onClick={() =>
                      act(() => restartTuning(project.id, iteration.id), "Tuning restarted.")
                    }
                  >
                    Tune again
                  </button>
                )}
              </p>
              {iteration.tuning.proposal && iteration.tuning.job.status === "succeeded" && (
                <p>
                  <button
                    type="button"
                    className="primary"
                    onClick={() =>
                      act(() => promote(project.id, iteration.id, {}), "Proposal promoted.")
                    }
                  >
                    Promote the proposal
                  </button>{" "}
                  <span className="muted">
                    segment {percent(iteration.tuning.proposal.segment_accuracy)}, word{" "}
                    {percent(iteration.tuning.proposal.word_accuracy)}
                  </span>
                </p>
              )}
              <CandidateTable
                projectId={project.id}
                iterationId={iteration.id}
                refreshKey={iteration.tuning.job.status}
                onPromote={(candidate) =>
                  act(
                    () => promote(project.id, iteration.id, { candidate: candidate.id }),
                    `Candidate ranked ${candidate.rank ?? "—"} promoted.`,
                  )
                }
              />
            </>
          ) : (
            <p>
              Closed without tuning.{" "}
              <button
                type="button"
                onClick={() =>
                  act(() => restartTuning(project.id, iteration.id), "Tuning started.")
                }
              >
                Tune now
              </button>
            </p>
          )}
          <PromoteParameterSet
            promotedAfter={iteration.promoted_parameter_set}
            onPromote={(parameterSet) =>
              act(
                () => promote(project.id, iteration.id, { parameter_set: parameterSet }),
                "Parameter set promoted.",
              )
            }
          />
        </section>
      )}
    </article>
  );
}

function submittedCount(iteration: IterationDetail): number {
  return iteration.documents.filter((document) =>
    document.annotations.some((annotation) => annotation.submitted_at !== null),
  ).length;
}

function AccuracySummary({ iteration }: { iteration: IterationDetail }) {
  const rows = [
    ["Human-evaluated, turns", iteration.accuracy.human_turn_accuracy],
    ["Human-evaluated, words", iteration.accuracy.human_word_accuracy],
    ["Segment accuracy", iteration.accuracy.segment_accuracy],
    ["Word accuracy", iteration.accuracy.word_accuracy],
    ["WindowDiff", iteration.accuracy.windowdiff],
  ] as const;
  return (
    <table className="lead-table compact" aria-label={`Accuracy of iteration ${iteration.number}`}>
      <thead>
        <tr>
          <th scope="col">Accuracy of the pre-alignment</th>
          <th scope="col">Mean</th>
          <th scope="col">Median</th>
          <th scope="col">Min</th>
          <th scope="col">Max</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([label, distribution]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            <td className="number">{percent(distribution.mean)}</td>
            <td className="number">{percent(distribution.median)}</td>
            <td className="number">{percent(distribution.min)}</td>
            <td className="number">{percent(distribution.max)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
