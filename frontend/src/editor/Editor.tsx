import {
  useCallback,
  useEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
  type ReactNode,
} from "react";
import {
  drawSpotCheck,
  fetchDocumentReview,
  type DocumentReview,
  type EditorPayload,
  type SaveTarget,
} from "../api/annotation";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { AssignToForm } from "./AssignToForm";
import { CheckNavigator } from "./CheckNavigator";
import type { Comparison } from "./comparison";
import { ConflictDialog } from "./ConflictDialog";
import { EditorHeader } from "./EditorHeader";
import { EditorToolbar } from "./EditorToolbar";
import { FindBar, type SearchHit } from "./FindBar";
import { HelpDialog } from "./HelpDialog";
import { MessageBar } from "./MessageBar";
import { ReportPane, TranscriptPane } from "./panes";
import { PlaybackControl } from "./PlaybackControl";
import { PreAlignmentWarnings } from "./PreAlignmentWarnings";
import {
  acceptRestStep,
  initialReviewed,
  nextToReview,
  reviewCounts,
  turnsToReview,
  unreadDrawn,
  withReviewed,
} from "./review";
import { ReviewBar } from "./ReviewBar";
import { selectionSpan, timedWords, turnAt, wordAt } from "./playback";
import { SubmitDialog } from "./SubmitDialog";
import type { VirtualListHandle } from "./VirtualList";
import { loadPosition, startingTurn, storePosition, type Draft } from "./draft";
import { buildModel, findNext } from "./model";
import { editorActionFor, type Command } from "./shortcuts";
import { UNALIGNED, createEditorState, editorReducer, selection, type EditorAction } from "./state";
import { changedTurns } from "./sync";
import { useAutosave } from "./useAutosave";
import { useLinkedScroll } from "./useLinkedScroll";
import { useReadingPosition } from "./useReadingPosition";
import { usePlayback } from "./usePlayback";
import { useShortcuts } from "./useShortcuts";
import { counted } from "../text/plural";

interface EditorProps {
  payload: EditorPayload;
  userId: number;
  /** Unsaved edits this browser kept from an earlier visit. */
  draft: Draft | null;
  /** Where edits are saved: the caller's annotation, or the document's adjudication. */
  target: SaveTarget;
  /** Adjudicating: the annotators' labels, side by side on every turn. */
  comparison?: Comparison;
  /** Reading someone else's work: nothing can be edited or saved. */
  readOnly?: boolean;
  /** Above the toolbar: whose work this is, and what else can be done with it. */
  banner?: ReactNode;
  /** What submitting is called here ("Submit", or "Complete" for an adjudication). */
  submitWord?: string;
  /** Called once a submission or reopening has reached the server. */
  onSubmittedChange?: () => void;
  /** Where the header's back link goes: the annotator's documents unless given. */
  back?: { href: string; label: string };
}

/** Commands that change the alignment, refused once it is submitted or while in conflict. */
const EDITS: ReadonlySet<EditorAction["type"]> = new Set([
  "assign",
  "assignAdjacent",
  "markUnaligned",
  "resetToPreAlignment",
  "moveBoundary",
  "acceptProposal",
  "undo",
  "redo",
  "take",
]);

const TAKE_COMMANDS: Partial<Record<Command, number>> = {
  takeFirst: 0,
  takeSecond: 1,
  takeThird: 2,
};

export function Editor({
  payload,
  userId,
  draft,
  target,
  comparison,
  readOnly = false,
  banner,
  submitWord = "Submit",
  onSubmittedChange,
  back,
}: EditorProps) {
  const documentId = payload.document.id;
  const model = useMemo(() => buildModel(payload), [payload]);
  const turnWords = useMemo(() => model.turns.map((turn) => turn.words), [model.turns]);
  const audioUrl = payload.audio_url;
  const spokenWords = useMemo(() => timedWords(payload.turn_words), [payload.turn_words]);
  const { audioRef, time: playhead, playing, play, stop, error: playbackError } = usePlayback();
  const restoredDraft =
    draft && draft.assignments.length === payload.annotation.assignments.length ? draft : null;
  const [state, dispatch] = useReducer(editorReducer, null, () => {
    const start = restoredDraft?.version === payload.annotation.version ? restoredDraft : null;
    const initial = createEditorState(
      start?.assignments ?? payload.annotation.assignments,
      model.preAlignment,
      model.segments.length,
    );
    const turn = startingTurn(
      loadPosition(documentId, userId),
      payload.position,
      model.turns.length,
    );
    return editorReducer(initial, { type: "select", turn });
  });
  const replaceAssignments = useCallback(
    (assignments: readonly number[]) => dispatch({ type: "replaceAssignments", assignments }),
    [],
  );
  const autosave = useAutosave({
    target,
    userId,
    readOnly,
    saved: payload.annotation,
    restoredDraft,
    assignments: state.assignments,
    replaceAssignments,
  });
  const editable = !readOnly && autosave.submittedAt === null && autosave.conflict === null;
  const [review, setReview] = useDocumentReview(payload, target, readOnly);
  const [reviewMode, setReviewMode] = useState(false);
  const [acceptOpen, setAcceptOpen] = useState(false);
  const [reviewed, setReviewed] = useState(() =>
    initialReviewed(payload.annotation.reviewed, payload.annotation.assignments.length),
  );
  const { markReviewed: sendReviewed } = autosave;
  /** Turns the annotator visited or confirmed: shown at once, saved with the next save. */
  const markReviewed = useCallback(
    (turns: readonly number[]) => {
      if (!editable || !target.recordsReview) return;
      setReviewed((current) => withReviewed(current, turns));
      sendReviewed(turns);
    },
    [editable, sendReviewed, target.recordsReview],
  );
  const submittedAtOpening = useRef(autosave.submittedAt);
  useEffect(() => {
    if (autosave.submittedAt === submittedAtOpening.current) return;
    submittedAtOpening.current = autosave.submittedAt;
    onSubmittedChange?.();
  }, [autosave.submittedAt, onSubmittedChange]);

  const turnList = useRef<VirtualListHandle>(null);
  const segmentList = useRef<VirtualListHandle>(null);
  const searchInput = useRef<HTMLInputElement>(null);
  const goToInput = useRef<HTMLInputElement>(null);
  const assignToInput = useRef<HTMLInputElement>(null);
  const [linked, setLinked] = useState(true);
  const { lead } = useLinkedScroll(turnList, segmentList, state.assignments, linked);
  const [query, setQuery] = useState("");
  const [helpOpen, setHelpOpen] = useState(false);
  const [submitOpen, setSubmitOpen] = useState(false);
  const [flash, setFlash] = useState<string | null>(() => {
    if (restoredDraft?.version !== payload.annotation.version) return null;
    const restored = changedTurns(payload.annotation.assignments, restoredDraft.assignments).length;
    return restored > 0
      ? `Restored ${counted(restored, "unsaved change")} kept in this browser; saving them now.`
      : null;
  });

  const act = useCallback(
    (action: EditorAction) => {
      if (EDITS.has(action.type) && !editable) {
        setFlash(
          readOnly
            ? "This is someone else's work, shown read-only."
            : autosave.submittedAt
              ? `This document is ${submitWord === "Submit" ? "submitted" : "completed"}; reopen it to edit.`
              : "Choose a version first: this document was changed elsewhere.",
        );
        return;
      }
      const target = action.type === "assign" ? model.segments[action.segment] : undefined;
      setFlash(
        target?.excluded
          ? `Segment ${target.index + 1} is in “${target.section}”, a section left out of the alignment: turns put there count for no summary.`
          : null,
      );
      dispatch(action);
    },
    [autosave.submittedAt, editable, model.segments, readOnly, submitWord],
  );

  const focusTurns = useCallback(() => {
    turnList.current?.element()?.focus({ preventScroll: true });
  }, []);

  /** How the next change of the focused turn is scrolled to: into view by the shortest
   * way (moving turn by turn), or to the middle (a jump). */
  const focusAlign = useRef<"auto" | "center">("auto");
  useEffect(() => {
    turnList.current?.scrollToIndex(state.focus, focusAlign.current);
    focusAlign.current = "auto";
    storePosition(documentId, userId, {
      turn: state.focus,
      turnCount: model.turns.length,
      at: Date.now(),
    });
  }, [documentId, model.turns.length, state.focus, userId]);
  useReadingPosition(payload.document.project, documentId, state.focus);
  // The focused turn is visited, so reviewed: shown at once (state adjusted while rendering,
  // as React advises for state that follows other state) and sent with the next save.
  const [visitedFocus, setVisitedFocus] = useState<number | null>(null);
  if (editable && target.recordsReview && visitedFocus !== state.focus) {
    setVisitedFocus(state.focus);
    setReviewed((current) => withReviewed(current, [state.focus]));
  }
  useEffect(() => {
    if (editable) sendReviewed([state.focus]);
  }, [editable, sendReviewed, state.focus]);

  useEffect(() => {
    if (!state.proposal) focusTurns();
  }, [focusTurns, state.proposal]);

  const jump = useCallback(
    (hit: SearchHit, settle: boolean) => {
      if (hit.pane === "turns") {
        lead("turns");
        dispatch({ type: "select", turn: hit.index });
      } else {
        // Going to a segment with the panes together selects its first turn, so the next
        // key acts there; a search hit, or a segment without turns, only shows the segment.
        const firstTurn = settle && linked ? state.assignments.indexOf(hit.index) : -1;
        if (firstTurn >= 0) {
          lead("turns");
          dispatch({ type: "select", turn: firstTurn });
        } else {
          lead("segments");
        }
        segmentList.current?.scrollToIndex(hit.index, "start");
      }
      if (settle) focusTurns();
    },
    [focusTurns, lead, linked, state.assignments],
  );

  const counts = useMemo(() => {
    let changed = 0;
    let unaligned = 0;
    state.assignments.forEach((segment, turn) => {
      if (segment !== model.preAlignment[turn]) changed += 1;
      if (segment === UNALIGNED) unaligned += 1;
    });
    const lowConfidence = model.turns.filter((turn) => turn.lowConfidence).length;
    const inExcluded = state.assignments.filter(
      (segment) => model.segments[segment]?.excluded,
    ).length;
    return {
      changed,
      unaligned,
      lowConfidence,
      inExcluded,
      disagreements: comparison?.disagreementCount,
    };
  }, [comparison, model, state.assignments]);

  /** Selects `turn` with the turn list leading. A jump lands the turn mid-list, with what
   * comes before and after it in view, not at the edge it was scrolled in from. */
  const goToTurn = useCallback(
    (turn: number) => {
      lead("turns");
      focusAlign.current = "center";
      dispatch({ type: "select", turn });
    },
    [lead],
  );
  const goToMarked = useCallback(
    (direction: 1 | -1, test: (turn: number) => boolean, what: string) => {
      const turn = findNext(model.turns.length, state.focus, direction, test);
      if (turn === null) setFlash(`No ${what} turn.`);
      else goToTurn(turn);
    },
    [goToTurn, model.turns.length, state.focus],
  );
  const lowConfidenceTurn = useCallback(
    (turn: number) => model.turns[turn]!.lowConfidence,
    [model],
  );
  const changedTurn = useCallback(
    (turn: number) => state.assignments[turn] !== model.preAlignment[turn],
    [model.preAlignment, state.assignments],
  );
  const shownTurns = useMemo(
    () => [...(review?.turns ?? []), ...(review?.spot_check_turns ?? [])],
    [review],
  );
  const reviewTurns = useMemo(
    () => turnsToReview(shownTurns, changedTurn, model.turns.length),
    [changedTurn, model.turns.length, shownTurns],
  );
  const toReview = useMemo(() => new Set(reviewTurns), [reviewTurns]);
  const reviewFigures = useMemo(
    () => reviewCounts(shownTurns, reviewTurns, reviewed, changedTurn),
    [changedTurn, reviewTurns, reviewed, shownTurns],
  );
  const goToReview = useCallback(
    (direction: 1 | -1) => {
      const turn = nextToReview(reviewTurns, state.focus, direction);
      if (turn === null) {
        setFlash(
          direction === 1
            ? "No turn to review after this one: accept the rest, or submit."
            : "No turn to review before this one.",
        );
        return;
      }
      goToTurn(turn);
    },
    [goToTurn, reviewTurns, state.focus],
  );
  const spotCheckUnread = useMemo(
    () => unreadDrawn(review?.spot_check_turns ?? [], reviewed, changedTurn).length,
    [changedTurn, review, reviewed],
  );
  /** "Accept the rest", by way of the spot check where the iteration asks for one. */
  const acceptRest = useCallback(async () => {
    const drawn = review?.spot_check_turns ?? [];
    const step = acceptRestStep(
      review?.spot_check ?? null,
      drawn,
      reviewFigures,
      reviewed,
      changedTurn,
    );
    if (step.kind === "accept") return setAcceptOpen(true);
    if (step.kind === "reviewFirst") {
      setFlash(
        `Review the ${counted(step.left, "turn")} left to review first: the spot check then draws from the turns still unread.`,
      );
      return goToReview(1);
    }
    if (step.kind === "readSpotCheck") {
      setFlash(
        `Read the ${counted(step.unread.length, "turn")} of the spot check left (turn ${step.unread[0]! + 1} first), then accept the rest.`,
      );
      return goToTurn(step.unread[0]!);
    }
    try {
      if (!(await autosave.saveNow())) return;
      const checked = await drawSpotCheck(payload.document.project, payload.document.id);
      setReview(checked);
      const turns = checked.spot_check_turns;
      if (turns.length === 0) return setAcceptOpen(true);
      setFlash(
        `Spot check: ${counted(turns.length, "turn")} drawn at random among those you have not read. Read ${turns.length === 1 ? "it" : "them"} (N goes to each), correct what is wrong, then accept the rest.`,
      );
      goToTurn(turns[0]!);
    } catch (reason) {
      setFlash(reason instanceof Error ? reason.message : String(reason));
    }
  }, [
    autosave,
    changedTurn,
    goToReview,
    goToTurn,
    payload.document,
    review,
    reviewFigures,
    reviewed,
    setReview,
  ]);
  const disagreementTurn = useCallback(
    (turn: number) => comparison?.disagreements[turn] ?? false,
    [comparison],
  );

  const { first, last } = selection(state);
  const span = useMemo(() => selectionSpan(model.turns, first, last), [model.turns, first, last]);
  const playingTurn = playhead === null ? null : turnAt(model.turns, playhead);
  const playingWord =
    playingTurn === null || playhead === null
      ? null
      : wordAt(spokenWords[playingTurn] ?? [], playhead);
  const togglePlayback = useCallback(() => {
    if (!audioUrl) return setFlash("This document has no recording to play.");
    if (playing) return stop();
    if (!span) return setFlash("The selected turns have no times in the transcript.");
    play(span);
  }, [audioUrl, play, playing, span, stop]);

  useEffect(() => {
    if (playingTurn !== null) turnList.current?.scrollToIndex(playingTurn);
  }, [playingTurn]);

  const run = useCallback(
    (command: Command) => {
      const action = editorActionFor(command);
      if (action) {
        if (action.type === "moveFocus") lead("turns");
        act(action);
        return;
      }
      switch (command) {
        case "save":
          void autosave.saveNow();
          return;
        case "submit":
          if (editable) setSubmitOpen(true);
          return;
        case "nextLowConfidence":
          if (reviewMode) return goToReview(1);
          return goToMarked(1, lowConfidenceTurn, "low-confidence");
        case "previousLowConfidence":
          if (reviewMode) return goToReview(-1);
          return goToMarked(-1, lowConfidenceTurn, "low-confidence");
        case "toggleReview":
          if (!review || review.threshold === null) {
            return setFlash(
              "This document has no review mode: its pre-alignment has no confidences, or it is in no iteration.",
            );
          }
          setReviewMode((on) => !on);
          if (!reviewMode && !toReview.has(state.focus)) goToReview(1);
          return;
        case "confirmTurn": {
          if (!reviewMode || !editable) return;
          const { first: from, last: to } = selection(state);
          markReviewed(Array.from({ length: to - from + 1 }, (_, index) => from + index));
          return goToReview(1);
        }
        case "acceptRest":
          if (reviewMode && editable) void acceptRest();
          return;
        case "nextChanged":
          return goToMarked(1, changedTurn, "changed");
        case "previousChanged":
          return goToMarked(-1, changedTurn, "changed");
        case "nextDisagreement":
        case "previousDisagreement":
          if (!comparison) return setFlash("Disagreements are shown when adjudicating.");
          return goToMarked(command === "nextDisagreement" ? 1 : -1, disagreementTurn, "disputed");
        case "takeFirst":
        case "takeSecond":
        case "takeThird": {
          const side = comparison?.annotators[TAKE_COMMANDS[command]!];
          if (!side) {
            return setFlash(
              comparison
                ? "There is no such annotator here."
                : "Sides are taken when adjudicating.",
            );
          }
          return act({ type: "take", labels: side.labels, source: side.name });
        }
        case "search":
          searchInput.current?.focus();
          searchInput.current?.select();
          return;
        case "assignTo":
          assignToInput.current?.focus();
          return;
        case "goTo":
          goToInput.current?.focus();
          goToInput.current?.select();
          return;
        case "playSelection":
          return togglePlayback();
        case "help":
          setHelpOpen((open) => !open);
          return;
        case "escape":
          setFlash(null);
          dispatch({ type: "dismissNotice" });
          dispatch({ type: "select", turn: state.focus });
          return;
      }
    },
    [
      acceptRest,
      act,
      autosave,
      changedTurn,
      comparison,
      disagreementTurn,
      editable,
      goToMarked,
      goToReview,
      lead,
      lowConfidenceTurn,
      markReviewed,
      review,
      reviewMode,
      state,
      toReview,
      togglePlayback,
    ],
  );

  useShortcuts(run);

  useEffect(() => {
    // Lets tests and the performance measurement know the editor is usable.
    performance.mark("tandem:editor-ready");
  }, []);

  const selectionLabel = first === last ? `turn ${first + 1}` : `turns ${first + 1}–${last + 1}`;
  const focusedSegment = state.assignments[state.focus] ?? UNALIGNED;

  return (
    <div className="editor" data-testid="editor" data-ready="true">
      <EditorHeader
        name={payload.document.name}
        save={autosave}
        counts={counts}
        editable={editable}
        readOnly={readOnly}
        submitWord={submitWord}
        back={back}
        mayReopen={payload.may_reopen}
        onHelp={() => setHelpOpen(true)}
        onSubmit={() => setSubmitOpen(true)}
        onReopen={() => {
          autosave.reopen().then(
            () => setFlash("Reopened: correct what you need, then submit again."),
            (reason: unknown) =>
              setFlash(reason instanceof Error ? reason.message : String(reason)),
          );
        }}
      />
      <PreAlignmentWarnings warnings={payload.pre_alignment?.warnings ?? []} />
      {banner}
      <EditorToolbar
        state={state}
        editable={editable}
        selectionLabel={selectionLabel}
        onAction={act}
      >
        <AssignToForm
          segmentCount={model.segments.length}
          selectionLabel={selectionLabel}
          editable={editable}
          inputRef={assignToInput}
          onAssign={(segment) => {
            act({ type: "assign", segment });
            focusTurns();
          }}
          onCancel={focusTurns}
        />
        {audioUrl && (
          <PlaybackControl
            playing={playing}
            span={span}
            selectionLabel={selectionLabel}
            onPlay={togglePlayback}
            onStop={stop}
          />
        )}
      </EditorToolbar>
      {audioUrl && (
        <audio ref={audioRef} src={audioUrl} preload="metadata" data-testid="recording" />
      )}
      {review && (
        <ReviewBar
          review={review}
          active={reviewMode}
          counts={reviewFigures}
          spotCheckUnread={spotCheckUnread}
          editable={editable}
          onCommand={run}
        />
      )}
      <div className="find-row">
        <FindBar
          model={model}
          query={query}
          onQueryChange={setQuery}
          onJump={jump}
          searchRef={searchInput}
          goToRef={goToInput}
          onReturnToTurns={focusTurns}
        />
        <CheckNavigator
          counts={counts}
          linked={linked}
          onLinkedChange={setLinked}
          onCommand={run}
        />
      </div>
      <MessageBar
        notice={flash ?? playbackError ?? state.notice}
        proposal={state.proposal}
        onAccept={() => act({ type: "acceptProposal" })}
        onDismiss={() => {
          setFlash(null);
          dispatch({ type: "dismissNotice" });
        }}
      />
      <main className="panes">
        <section className="pane" aria-labelledby="transcript-heading">
          <h2 id="transcript-heading">
            Transcript <span className="count">{counted(model.turns.length, "turn")}</span>
          </h2>
          <TranscriptPane
            turns={model.turns}
            assignments={state.assignments}
            preAlignment={model.preAlignment}
            comparison={comparison}
            focus={state.focus}
            first={first}
            last={last}
            query={query}
            words={spokenWords}
            playingTurn={playingTurn}
            playingWord={playingWord}
            toReview={reviewMode ? toReview : undefined}
            reviewed={reviewMode ? reviewed : undefined}
            listRef={turnList}
            onSelect={(turn, extend) => {
              lead("turns");
              dispatch({ type: "select", turn, extend });
              // Clicking a turn while listening goes there and plays it.
              const clicked = playing && !extend ? selectionSpan(model.turns, turn, turn) : null;
              if (clicked) play(clicked);
            }}
          />
        </section>
        <section className="pane" aria-labelledby="report-heading">
          <h2 id="report-heading">
            Report <span className="count">{counted(model.segments.length, "segment")}</span>
          </h2>
          <ReportPane
            segments={model.segments}
            assignments={state.assignments}
            turnWords={turnWords}
            currentSegment={focusedSegment}
            selectionLabel={editable ? selectionLabel : null}
            query={query}
            listRef={segmentList}
            onAssign={(segment) => act({ type: "assign", segment })}
            onShowTurns={(first, last) => {
              lead("turns");
              dispatch({ type: "selectRange", first, last });
              focusTurns();
            }}
          />
        </section>
      </main>
      <HelpDialog open={helpOpen} onClose={() => setHelpOpen(false)} />
      <SubmitDialog
        open={submitOpen}
        documentName={payload.document.name}
        submitWord={submitWord}
        changedCount={counts.changed}
        unalignedCount={counts.unaligned}
        onSubmit={autosave.submit}
        onClose={() => setSubmitOpen(false)}
      />
      <ConfirmDialog
        open={acceptOpen}
        title="Accept the rest and submit?"
        confirmLabel="Accept the rest and submit"
        keepLabel="Keep reviewing"
        onConfirm={() => {
          const accepted = reviewFigures.unreviewed;
          autosave.submit({ acceptUnreviewed: true }).then(
            () =>
              setFlash(
                `Submitted: ${counted(accepted, "turn")} accepted without review, as the gold and the exports will say.`,
              ),
            (reason: unknown) =>
              setFlash(reason instanceof Error ? reason.message : String(reason)),
          );
        }}
        onClose={() => setAcceptOpen(false)}
      >
        <p>
          The {counted(reviewFigures.unreviewed, "turn")} you have not reviewed (neither visited,
          confirmed nor changed) will be submitted as the pre-alignment proposed them, and recorded
          as accepted without review: the gold and the exports say so per turn, so a user of the
          corpus can leave them out.
        </p>
      </ConfirmDialog>
      <ConflictDialog
        conflict={autosave.conflict}
        onKeepMine={() => {
          const outcome = autosave.keepMine();
          if (outcome?.keptWholeVersion) {
            setFlash(
              "The two versions did not fit together in report order: yours was kept whole.",
            );
          } else if (outcome) {
            setFlash(
              `Your changes were applied on top of the other version${
                outcome.overridden.length
                  ? ` (yours won on ${counted(outcome.overridden.length, "turn")})`
                  : ""
              }.`,
            );
          }
        }}
        onTakeTheirs={autosave.takeTheirs}
      />
    </div>
  );
}

/** The turns the review mode shows: asked for once, for an annotator's own annotation, and
 * set again when the spot check is drawn. */
function useDocumentReview(
  payload: EditorPayload,
  target: SaveTarget,
  readOnly: boolean,
): [DocumentReview | null, (review: DocumentReview) => void] {
  const [review, setReview] = useState<DocumentReview | null>(null);
  const { project, id } = payload.document;
  const wanted = target.recordsReview && !readOnly && payload.pre_alignment !== null;
  useEffect(() => {
    if (!wanted) return;
    const controller = new AbortController();
    fetchDocumentReview(project, id, controller.signal).then(setReview, () => setReview(null));
    return () => controller.abort();
  }, [id, project, wanted]);
  return [review, setReview];
}
