import { useState } from "react";
import { setSpotCheck, type SpotCheckPrecision } from "./api";
import { spotCheckPrecisionNote } from "./spotCheckPrecision";
import { messageOf } from "../components/useLoad";

/**
 * The iteration's spot check: once an annotator has reviewed the turns the review mode shows,
 * the server draws this share of the turns still unread for them to read before they may
 * accept the rest. What they find there measures the residual error on the batch itself; it
 * costs that much more reading (docs/review.md).
 */
export function SpotCheckForm({
  projectId,
  iterationId,
  share,
  precision,
  turns,
  onSaved,
}: {
  projectId: number;
  iterationId: number;
  /** The share in force, or null for none. */
  share: number | null;
  /** What that share, or the suggested one, buys at the threshold in force. */
  precision: SpotCheckPrecision;
  /** The batch's turns with confidences. */
  turns: number;
  onSaved: () => void;
}) {
  const [draft, setDraft] = useState("");
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const percent = draft.trim() === "" ? null : Number(draft);
  const valid = percent !== null && Number.isFinite(percent) && percent > 0 && percent <= 100;

  const save = async (value: number | null) => {
    setMessage(null);
    try {
      const saved = await setSpotCheck(projectId, iterationId, value);
      setMessage({
        error: false,
        text:
          saved.spot_check === null
            ? "No spot check: annotators may accept the rest once reviewed."
            : `Spot check set to ${(saved.spot_check * 100).toFixed(1)} % of the turns left unread.`,
      });
      setDraft("");
      onSaved();
    } catch (reason) {
      setMessage({ error: true, text: messageOf(reason) });
    }
  };

  return (
    <form
      className="inline-form spot-check-form"
      aria-labelledby="spot-check-heading"
      onSubmit={(event) => {
        event.preventDefault();
        if (valid) void save(percent / 100);
      }}
    >
      <h4 id="spot-check-heading">Spot check</h4>
      <p>
        {share === null
          ? "None: annotators accept the rest unread once the shown turns are reviewed."
          : `${(share * 100).toFixed(1)} % of the turns left unread after review, drawn at random, are read before the rest is accepted; what they find measures the residual error on this batch.`}
      </p>
      <p className="muted">{spotCheckPrecisionNote(precision, turns, share !== null)}</p>
      <label>
        Spot-check{" "}
        <input
          type="number"
          min={0}
          max={100}
          step="any"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
        />{" "}
        % of the turns left unread
      </label>{" "}
      <button type="submit" disabled={!valid}>
        Set spot check
      </button>{" "}
      <button type="button" disabled={share === null} onClick={() => void save(null)}>
        No spot check
      </button>
      {message && (
        <p role={message.error ? "alert" : "status"} className={message.error ? "error" : "notice"}>
          {message.text}
        </p>
      )}
    </form>
  );
}
