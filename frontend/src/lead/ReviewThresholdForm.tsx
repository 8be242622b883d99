import { useState } from "react";
import {
  fetchIterationReview,
  setReviewThreshold,
  type AfterReview,
  type Calibrations,
  type ReviewPlan,
} from "./api";
import { calibrationNote } from "./calibration";
import { SpotCheckForm } from "./SpotCheckForm";
import { messageOf, useLoad } from "../components/useLoad";
import { counted } from "../text/plural";
import { points } from "./spotCheckPrecision";

function share(value: number): string {
  return `${(value * 100).toFixed(1)} %`;
}

function PlanRow({ label, plan }: { label: string; plan: ReviewPlan }) {
  return (
    <tr>
      <th scope="row">{label}</th>
      <td className="number">{plan.threshold.toFixed(3)}</td>
      <td className="number">{share(plan.shown_share)}</td>
      <td className="number">{share(plan.estimated_residual_error)}</td>
    </tr>
  );
}

/**
 * What the submitted documents' review found against what the confidences expected, and the
 * residual error of their gold re-estimated from it: the plan's estimate trusts a calibration
 * fitted on other documents, this one also reads the batch's own review.
 */
function AfterReviewNote({ after }: { after: AfterReview }) {
  return (
    <p role="note" aria-label="After review">
      After review of {counted(after.documents, "submitted document")} (
      {counted(after.turns_read, "turn")} read of {after.turns}): of the{" "}
      {counted(after.shown_read, "shown turn")} read, annotators kept {share(after.read_kept)} of
      the labels where the confidences expected {share(after.read_expected_kept)}, so the estimated
      residual error of their gold is <strong>{share(after.estimated_residual_error)}</strong>, give
      or take {points(after.estimated_residual_error_sd)} (one standard deviation).
      {after.estimated_residual_error_spot_checked !== null && (
        <>
          {" "}
          With the spot checks ({counted(after.spot_checked_turns, "turn")} drawn at random among
          those left unread), it is{" "}
          <strong>{share(after.estimated_residual_error_spot_checked)}</strong>
          {after.estimated_residual_error_spot_checked_sd !== null &&
            `, give or take ${points(after.estimated_residual_error_spot_checked_sd)}`}
          .
        </>
      )}
      {after.estimated_residual_error_spot_checked === null && after.spot_checked_documents > 0 && (
        <>
          {" "}
          {counted(after.spot_checked_documents, "document")} of {after.documents} had their spot
          check: the estimate with it waits for every one.
        </>
      )}
    </p>
  );
}

/** What calibrated the batch's confidences, and what that makes of the estimates. */
function CalibrationNote({ calibrations }: { calibrations: Calibrations }) {
  const { said, cautions } = calibrationNote(calibrations);
  return (
    <div role="note" aria-label="Calibration">
      <p>{said}</p>
      {cautions.map((caution) => (
        <p key={caution} className="muted">
          {caution}
        </p>
      ))}
    </div>
  );
}

/**
 * The confidence below which the editor's review mode shows a turn, for one open iteration:
 * the lead sees, before and after a change, the share of turns annotators will review and the
 * estimated residual error (the share of wrong labels left when they accept the rest), from
 * the batch's pre-alignments' confidences; auto aims at 2 %.
 */
export function ReviewThresholdForm({
  projectId,
  iterationId,
  refreshKey,
}: {
  projectId: number;
  iterationId: number;
  /** Changes when the batch's pre-alignments may have changed. */
  refreshKey: string;
}) {
  const [draft, setDraft] = useState("");
  const [preview, setPreview] = useState<number | null>(null);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const [loaded, reload] = useLoad(
    (signal) =>
      fetchIterationReview(projectId, iterationId, { threshold: preview ?? undefined }, signal),
    [projectId, iterationId, preview, refreshKey],
  );
  const parsed = draft.trim() === "" ? null : Number(draft);
  const valid = parsed !== null && Number.isFinite(parsed) && parsed >= 0 && parsed <= 1;
  const [targetDraft, setTargetDraft] = useState("");
  const targetPercent = targetDraft.trim() === "" ? null : Number(targetDraft);
  const targetValid =
    targetPercent !== null &&
    Number.isFinite(targetPercent) &&
    targetPercent >= 0 &&
    targetPercent <= 100;

  /** Puts the lowest threshold that meets the target in the threshold field, previewed. */
  const findThreshold = async (percentTarget: number) => {
    setMessage(null);
    try {
      const found = await fetchIterationReview(projectId, iterationId, {
        target: percentTarget / 100,
      });
      if (found.preview) {
        setDraft(String(found.preview.threshold));
        setPreview(found.preview.threshold);
      }
    } catch (reason) {
      setMessage({ error: true, text: messageOf(reason) });
    }
  };

  const save = async (threshold: number | null) => {
    setMessage(null);
    try {
      const saved = await setReviewThreshold(projectId, iterationId, threshold);
      setMessage({
        error: false,
        text:
          saved.threshold === null
            ? `Review threshold set to auto (${saved.automatic.threshold.toFixed(3)}).`
            : `Review threshold set to ${saved.threshold}.`,
      });
      setPreview(null);
      setDraft("");
      reload();
    } catch (reason) {
      setMessage({ error: true, text: messageOf(reason) });
    }
  };

  return (
    <section aria-labelledby="review-threshold-heading">
      <h3 id="review-threshold-heading">Review threshold</h3>
      {loaded.state === "loading" && <p aria-busy="true">Reading the batch’s confidences…</p>}
      {loaded.state === "failed" && <p role="alert">{loaded.message}</p>}
      {loaded.state === "ready" &&
        (loaded.data.documents === 0 ? (
          <p className="muted">
            No pre-alignment of this batch has confidences yet: the review mode shows nothing until
            one has.
          </p>
        ) : (
          <>
            <p>
              The editor’s review mode shows the turns whose pre-alignment confidence is below the
              threshold, and the turns next to each one an annotator changes, to the end of its run;
              annotators may accept the rest unread. Estimated residual error: the share of all
              turns expected wrong in the gold then, counting the runs followed where the
              calibration measured how errors run together, from the confidences of{" "}
              {counted(loaded.data.documents, "pre-alignment")} (
              {counted(loaded.data.turns, "turn")}). Auto aims at {share(loaded.data.target)}.
            </p>
            <CalibrationNote calibrations={loaded.data.calibrations} />
            <table className="lead-table compact" aria-label="Review threshold">
              <thead>
                <tr>
                  <th scope="col" />
                  <th scope="col">Threshold</th>
                  <th scope="col">Turns shown</th>
                  <th scope="col">Estimated residual error</th>
                </tr>
              </thead>
              <tbody>
                <PlanRow
                  label={loaded.data.threshold === null ? "In force (auto)" : "In force"}
                  plan={loaded.data.current}
                />
                {loaded.data.threshold !== null && (
                  <PlanRow label="Auto" plan={loaded.data.automatic} />
                )}
                {loaded.data.preview && <PlanRow label="Previewed" plan={loaded.data.preview} />}
              </tbody>
            </table>
            {loaded.data.after_review && <AfterReviewNote after={loaded.data.after_review} />}
            <form
              className="inline-form"
              onSubmit={(event) => {
                event.preventDefault();
                if (targetValid) void findThreshold(targetPercent);
              }}
            >
              <label>
                Aim at a residual error of{" "}
                <input
                  type="number"
                  min={0}
                  max={100}
                  step="any"
                  value={targetDraft}
                  onChange={(event) => setTargetDraft(event.target.value)}
                />{" "}
                %
              </label>{" "}
              <button type="submit" disabled={!targetValid}>
                Find threshold
              </button>
            </form>
            <form
              className="inline-form"
              onSubmit={(event) => {
                event.preventDefault();
                if (valid) setPreview(parsed);
              }}
            >
              <label>
                Threshold{" "}
                <input
                  type="number"
                  min={0}
                  max={1}
                  step="any"
                  value={draft}
                  onChange={(event) => setDraft(event.target.value)}
                />
              </label>{" "}
              <button type="submit" disabled={!valid}>
                Preview
              </button>{" "}
              <button type="button" disabled={!valid} onClick={() => void save(parsed)}>
                Set threshold
              </button>{" "}
              <button
                type="button"
                disabled={loaded.data.threshold === null}
                onClick={() => void save(null)}
              >
                Use auto
              </button>
            </form>
            <SpotCheckForm
              projectId={projectId}
              iterationId={iterationId}
              share={loaded.data.spot_check}
              precision={loaded.data.spot_check_precision}
              turns={loaded.data.turns}
              onSaved={reload}
            />
          </>
        ))}
      {message && (
        <p role={message.error ? "alert" : "status"} className={message.error ? "error" : "notice"}>
          {message.text}
        </p>
      )}
    </section>
  );
}
