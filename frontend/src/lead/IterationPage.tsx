import { useEffect, useRef, useState } from "react";
import { ApiError } from "../api/client";
import { Link } from "../app/router";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { AddDocumentsForm } from "./AddDocumentsForm";
import {
  cancelIteration,
  closeIteration,
  fetchIteration,
  promote,
  restartPreAlignment,
  restartTuning,
  type IterationDetail,
  type TuningBrief,
} from "./api";
import { BatchTable } from "./BatchTable";
import { CandidateTable } from "./CandidateTable";
import { CloseIterationForm } from "./CloseIterationForm";
import { dateTime, percent } from "../text/format";
import { describeParams } from "./format";
import { ITERATION_STATUS_TEXT } from "./IterationsSection";
import { JobProgress } from "./JobProgress";
import { learnedVerdict } from "./learned";
import { PromoteParameterSet } from "./PromoteParameterSet";
import { ReviewThresholdForm } from "./ReviewThresholdForm";
import { useProject } from "./ProjectContext";
import { leadProjectPath } from "./routes";
import { messageOf, useLoad } from "../components/useLoad";
import { counted, noun } from "../text/plural";

/** Followed until closed or cancelled: jobs while they run, annotators' progress meanwhile. */
const POLL_MS = 3000;

/** One iteration, past or present: its batch, parameters, scores, tuning and promotion. */
export function IterationPage({ iterationId }: { iterationId: number }) {
  const { project, reload: reloadProject } = useProject();
  const [loaded, reload] = useLoad(
    (signal) => fetchIteration(project.id, iterationId, signal),
    [project.id, iterationId],
    { ms: POLL_MS, while: (it) => it.status !== "closed" && it.status !== "cancelled" },
  );
  const [notice, setNotice] = useState<{
    error: boolean;
    text: string;
    reasons?: string[];
  } | null>(null);
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const [confirmingProposal, setConfirmingProposal] = useState(false);
  const noticeRef = useRef<HTMLDivElement>(null);
  // The answer to a button far down the page (a candidate's Promote) is shown where it is read.
  useEffect(() => {
    noticeRef.current?.scrollIntoView({ block: "nearest" });
  }, [notice]);

  const act = async (action: () => Promise<unknown>, done: string) => {
    setNotice(null);
    try {
      await action();
      setNotice({ error: false, text: done });
      reload();
      reloadProject();
    } catch (reason) {
      setNotice({ error: true, text: messageOf(reason), reasons: reasonsOf(reason) });
    }
  };

  if (loaded.state === "loading") return <p aria-busy="true">Loading the iteration…</p>;
  if (loaded.state === "failed") {
    return <p role="alert">The iteration could not be loaded: {loaded.message}</p>;
  }
  const iteration: IterationDetail = loaded.data;
  const job = iteration.pre_align_job;
  const open = iteration.status === "open" || iteration.status === "annotating";
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
        <div
          ref={noticeRef}
          role={notice.error ? "alert" : "status"}
          className={notice.error ? "error" : "notice"}
        >
          {notice.reasons ? (
            <>
              {notice.text.slice(0, notice.text.indexOf(":") + 1)}
              <ul>
                {notice.reasons.map((reason) => (
                  <li key={reason}>{reason}</li>
                ))}
              </ul>
            </>
          ) : (
            notice.text
          )}
        </div>
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
        <dt>Double annotation</dt>
        <dd>
          {iteration.double_annotation
            ? `${iteration.double_annotation.documents.length} of ${counted(iteration.document_count, "document")}` +
              (iteration.double_annotation.share !== null
                ? ` (${Math.round(iteration.double_annotation.share * 100)} % drawn with seed ${iteration.double_annotation.seed})`
                : " (chosen)")
            : "none"}
        </dd>
      </dl>

      {iteration.cancelled_at && (
        <p data-testid="cancelled-note">
          Cancelled {dateTime(iteration.cancelled_at)}; its{" "}
          {counted(iteration.cancelled_documents.length, "document")} went back to the project with
          their pre-alignments and annotations.
        </p>
      )}

      <h3>
        Batch:{" "}
        <span data-testid="batch-progress">
          {submittedCount(iteration)} of {iteration.documents.length} submitted
        </span>
      </h3>
      <BatchTable iteration={iteration} onChanged={reload} />
      {open && (
        <AddDocumentsForm
          iterationId={iteration.id}
          number={iteration.number}
          batch={iteration.documents.map((document) => document.id)}
          jobBefore={job?.id ?? null}
          onAdding={() => setNotice(null)}
          onAdded={(count, pre_aligning) => {
            const them = noun(count, "it", "them");
            setNotice({
              error: false,
              text: `${counted(count, "document")} added; ${
                pre_aligning
                  ? `pre-aligning ${them}`
                  : `${them} ${noun(count, "keeps its", "keep their")} pre-alignment`
              }.`,
            });
            reload();
            reloadProject();
          }}
        />
      )}

      {open && (
        <ReviewThresholdForm
          projectId={project.id}
          iterationId={iteration.id}
          refreshKey={`${job?.status}:${iteration.document_count}`}
        />
      )}

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

      {open && (
        <p>
          <button type="button" onClick={() => setConfirmingCancel(true)}>
            Cancel the iteration…
          </button>
        </p>
      )}
      <ConfirmDialog
        open={confirmingCancel}
        title={`Cancel iteration ${iteration.number}?`}
        confirmLabel="Cancel the iteration"
        keepLabel="Keep it open"
        onClose={() => setConfirmingCancel(false)}
        onConfirm={() =>
          act(
            () => cancelIteration(project.id, iteration.id),
            `Iteration ${iteration.number} cancelled: its documents can join the next batch.`,
          )
        }
      >
        <p>
          Its {counted(iteration.documents.length, "document")}{" "}
          {noun(iteration.documents.length, "goes", "go")} back to the project, keeping their
          pre-alignments and annotations; nothing is recorded or tuned. The iteration stays in the
          history, marked cancelled, and the next one can be opened.
        </p>
      </ConfirmDialog>

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
              {iteration.tuning.job.status === "succeeded" && (
                <TuningVerdict tuning={iteration.tuning} />
              )}
              {(iteration.tuning.learned || iteration.tuning.learning_refusal) && (
                <p
                  data-testid="learned-verdict"
                  className={iteration.tuning.learning_refusal ? "notice" : "muted"}
                >
                  {learnedVerdict(iteration.tuning)}
                </p>
              )}
              {iteration.tuning.proposal &&
                iteration.tuning.job.status === "succeeded" &&
                iteration.tuning.promoted_candidate !== iteration.tuning.proposal.id && (
                  <p>
                    <button
                      type="button"
                      className="primary"
                      onClick={() => setConfirmingProposal(true)}
                    >
                      Promote the proposal…
                    </button>{" "}
                    <span className="muted">
                      segment {percent(iteration.tuning.proposal.segment_accuracy)}, word{" "}
                      {percent(iteration.tuning.proposal.word_accuracy)}
                    </span>
                  </p>
                )}
              {iteration.tuning.proposal && (
                <ConfirmDialog
                  open={confirmingProposal}
                  title="Promote the proposal?"
                  confirmLabel="Promote it"
                  keepLabel="Keep the parameters in use"
                  onClose={() => setConfirmingProposal(false)}
                  onConfirm={() =>
                    act(() => promote(project.id, iteration.id, {}), "Proposal promoted.")
                  }
                >
                  {iteration.tuning.proposal_recalibrates ? (
                    <p>
                      The project&apos;s next pre-alignments will keep the parameters of{" "}
                      {iteration.tuning.incumbent_name || "the parameters in use"}, with the learned
                      decision refitted on this gold: a new calibration of their confidence, and the
                      labels its corrections change, if it kept any.
                    </p>
                  ) : (
                    <p>
                      The project&apos;s next pre-alignments will use it instead of{" "}
                      {iteration.tuning.incumbent_name || "the parameters in use"}: segment{" "}
                      {percent(iteration.tuning.proposal.segment_accuracy)}, word{" "}
                      {percent(iteration.tuning.proposal.word_accuracy)} on this gold
                      {iteration.tuning.incumbent &&
                        ` (in use: segment ${percent(iteration.tuning.incumbent.segment_accuracy)}, word ${percent(iteration.tuning.incumbent.word_accuracy)})`}
                      .
                    </p>
                  )}
                </ConfirmDialog>
              )}
              <CandidateTable
                projectId={project.id}
                iterationId={iteration.id}
                refreshKey={`${iteration.tuning.job.status}:${iteration.promoted_parameter_set}`}
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

/** What the run says about the parameters in use: beaten by the proposal by more than the
 * gold documents' uncertainty, or kept, with the run's own sentence (the gain's bootstrap
 * interval, ties) so that a lead sees why; kept but recalibrated, when the run fitted them a
 * new learned decision (proposed like any candidate, since its corrections may change labels);
 * once one of its candidates is promoted, that it now is what the project uses. */
function TuningVerdict({ tuning }: { tuning: TuningBrief }) {
  const { proposal, incumbent, incumbent_name: name, incumbent_note: note } = tuning;
  const promoted = tuning.promoted_candidate;
  const recalibrated = tuning.proposal_recalibrates;
  if (recalibrated && promoted !== null && promoted === proposal?.id) {
    return (
      <p data-testid="tuning-verdict" className="notice">
        The recalibrated parameters are promoted: the project pre-aligns with the parameters of{" "}
        {name}, their calibration refitted on{" "}
        {counted(tuning.gold_documents.length, "gold document")}.
      </p>
    );
  }
  if (promoted !== null && promoted !== incumbent?.id) {
    return (
      <p data-testid="tuning-verdict" className="notice">
        {promoted === proposal?.id ? "The proposal" : "A candidate of this run"} is promoted: the
        project pre-aligns with it now, instead of {name || "the parameters in use before"}.
      </p>
    );
  }
  if (!incumbent) return note ? <p className="muted">{note}</p> : null;
  const inUse = `The parameters in use, ${name}, score segment ${percent(incumbent.segment_accuracy)}, word ${percent(incumbent.word_accuracy)} on the same gold.`;
  return (
    <p data-testid="tuning-verdict" className={proposal ? undefined : "notice"}>
      {proposal && recalibrated ? (
        <>
          <strong>No better parameters: the proposal recalibrates the current ones.</strong>{" "}
          {tuning.proposal_note} {inUse}
        </>
      ) : proposal ? (
        <>
          The proposal beats the parameters in use. {tuning.proposal_note} {inUse}
        </>
      ) : (
        <>
          <strong>No proposal: keep the current parameters.</strong> {tuning.proposal_note} {inUse}
        </>
      )}
    </p>
  );
}

/** The server's reasons for a refusal, when it lists them (closing names each kind of
 * document that is not ready), so they are shown as a list rather than one long sentence. */
function reasonsOf(error: unknown): string[] | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const reasons = (error.body as { reasons?: unknown } | null)?.reasons;
  return Array.isArray(reasons) && reasons.every((reason) => typeof reason === "string")
    ? reasons
    : undefined;
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
