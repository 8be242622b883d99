import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { parseBlocks, parseTranscript } from "../editor/markup";
import { messageOf } from "../components/useLoad";
import { fetchNext, rate, undoLast, type RaterNext } from "./api";
import { commandOf, progressText, type RatingAnswer } from "./model";
import "./rating.css";

const ANSWERS: { answer: RatingAnswer; key: string; label: string }[] = [
  { answer: "yes", key: "y", label: "Yes" },
  { answer: "partly", key: "p", label: "Partly (turns missing or extra)" },
  { answer: "no", key: "n", label: "No" },
];

/** A rater's page: one pair at a time, answered from the keyboard (y / p / n, c for a note,
 * u to undo). The server keeps the place, so reopening the page resumes. */
export function RatingPage({ projectId, studyId }: { projectId: number; studyId: number }) {
  const [state, setState] = useState<RaterNext | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState("");
  const [noteOpen, setNoteOpen] = useState(false);
  const noteRef = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    const controller = new AbortController();
    fetchNext(projectId, studyId, controller.signal).then(setState, (reason: unknown) => {
      if (!controller.signal.aborted) setError(messageOf(reason));
    });
    return () => controller.abort();
  }, [projectId, studyId]);

  const send = useCallback(
    async (request: () => Promise<RaterNext>) => {
      if (busy) return;
      setBusy(true);
      try {
        setState(await request());
        setError(null);
        setNote("");
        setNoteOpen(false);
      } catch (reason) {
        setError(messageOf(reason));
      } finally {
        setBusy(false);
      }
    },
    [busy],
  );

  const answer = useCallback(
    (choice: RatingAnswer) => {
      const pair = state?.pair;
      if (!pair) return;
      void send(() => rate(projectId, studyId, pair.assignment, choice, note.trim()));
    },
    [state, send, projectId, studyId, note],
  );

  const undo = useCallback(() => {
    if (state?.can_undo) void send(() => undoLast(projectId, studyId));
  }, [state, send, projectId, studyId]);

  // Bound as a layout effect: a passive effect runs in a later task, and a key pressed between
  // the render that shows the next pair and that task reached the previous listener, whose
  // `send` still saw the answer in flight and dropped the key.
  useLayoutEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      const inField = !!target && ["TEXTAREA", "INPUT", "SELECT"].includes(target.tagName);
      if (inField && event.key === "Escape") {
        target.blur();
        return;
      }
      const command = commandOf({
        key: event.key,
        ctrlKey: event.ctrlKey,
        metaKey: event.metaKey,
        altKey: event.altKey,
        inField,
      });
      if (!command) return;
      event.preventDefault();
      if (command.kind === "answer") answer(command.answer);
      else if (command.kind === "undo") undo();
      else {
        setNoteOpen(true);
        setTimeout(() => noteRef.current?.focus(), 0);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [answer, undo]);

  if (error && !state) {
    return (
      <main className="page-message">
        <p role="alert">This rating study could not be loaded: {error}</p>
      </main>
    );
  }
  if (!state) return <p aria-busy="true">Loading…</p>;
  const pair = state.pair;
  return (
    <main className="rating-page" data-testid="rating-page">
      <header className="rating-header">
        <h1>{state.name}</h1>
        <progress max={state.total} value={state.done} aria-label="Progress" />
        <span data-testid="rating-progress">{progressText(state.done, state.total)}</span>
        <button type="button" onClick={undo} disabled={!state.can_undo || busy}>
          Undo last (u)
        </button>
      </header>
      {error && <p role="alert">{error}</p>}
      {pair === null ? (
        <p data-testid="rating-finished">Every pair is rated. Thank you.</p>
      ) : (
        <>
          <p className="rating-question">Is the report segment written from exactly these turns?</p>
          <div className="rating-pair" data-testid="rating-pair" data-assignment={pair.assignment}>
            <section aria-label="Transcript turns" className="rating-turns">
              {pair.turns.map((turn) => (
                <p
                  key={turn.position}
                  className={turn.in_pair ? "rating-turn" : "rating-turn context"}
                  data-in-pair={turn.in_pair}
                >
                  <strong>{turn.speaker}</strong>{" "}
                  {parseTranscript(turn.text).map((piece, index) =>
                    piece.unknown ? (
                      <span
                        key={index}
                        className="unknown-word"
                        title="Word the speech recogniser could not read"
                      >
                        {" … "}
                      </span>
                    ) : (
                      <span key={index}>{piece.text}</span>
                    ),
                  )}
                </p>
              ))}
            </section>
            <section aria-label="Report segment" className="rating-segment">
              {pair.segment.speaker && (
                <p>
                  <strong>{pair.segment.speaker}</strong>
                </p>
              )}
              {parseBlocks(pair.segment.text)
                .filter((block) => block.kind !== "speaker")
                .map((block, index) => (
                  <p key={index}>{block.text}</p>
                ))}
            </section>
          </div>
          <div className="rating-answers">
            {ANSWERS.map((choice) => (
              <button
                key={choice.answer}
                type="button"
                disabled={busy}
                onClick={() => answer(choice.answer)}
              >
                {choice.label} ({choice.key})
              </button>
            ))}
            <button type="button" onClick={() => setNoteOpen(true)}>
              Note (c)
            </button>
          </div>
          {noteOpen && (
            <label className="rating-note">
              Note, sent with the answer (Escape returns to the keys)
              <textarea
                ref={noteRef}
                value={note}
                maxLength={500}
                onChange={(event) => setNote(event.target.value)}
              />
            </label>
          )}
        </>
      )}
    </main>
  );
}
