/**
 * Autosave: every change is sent shortly after it is made, as bulk edits against the version
 * it was made on. When someone else saved first the server refuses (409) and sends its
 * version; saving then pauses until the annotator chooses, and their edits stay on screen
 * (and in this browser) meanwhile.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import {
  ConflictError,
  type AnnotationData,
  type Operation,
  type SaveTarget,
} from "../api/annotation";
import { ApiError, NetworkError } from "../api/client";
import { clearDraft, storeDraft, type Draft } from "./draft";
import { UNALIGNED } from "./state";
import { diffRuns, rebase, sameAssignments, type AssignmentRun } from "./sync";
import { useActiveTime } from "./useActiveTime";

const SAVE_DELAY_MS = 700;
/** Turns reviewed without an edit wait longer: moving through turns should not save each. */
const REVIEW_SAVE_DELAY_MS = 5000;
const RETRY_DELAY_MS = 4000;

export type SaveStatus = "saved" | "unsaved" | "saving" | "offline" | "error" | "conflict";

export interface Conflict {
  theirs: AnnotationData;
  /** The server version the annotator's edits were made on. */
  base: readonly number[];
  mine: readonly number[];
}

export interface ConflictOutcome {
  overridden: number[];
  keptWholeVersion: boolean;
}

interface AutosaveOptions {
  target: SaveTarget;
  userId: number;
  /** Nothing is saved: the caller reads someone else's work. */
  readOnly?: boolean;
  /** The server's state the editor opened on. */
  saved: AnnotationData;
  /** Edits from this browser that the server has not seen, made on `saved` or an older version. */
  restoredDraft: Draft | null;
  assignments: readonly number[];
  replaceAssignments: (assignments: readonly number[]) => void;
}

export function describeSaveError(reason: unknown): string {
  if (reason instanceof ApiError && (reason.status === 401 || reason.status === 403)) {
    return "you are signed out. Sign in again in another tab; your changes are kept in this browser.";
  }
  return reason instanceof Error ? reason.message : String(reason);
}

export function toOperation(run: AssignmentRun): Operation {
  const turns = { first_turn: run.first, last_turn: run.last };
  return run.segment === UNALIGNED
    ? { action: "unalign", ...turns }
    : { action: "assign", ...turns, segment: run.segment };
}

export function useAutosave({
  target,
  userId,
  readOnly = false,
  saved,
  restoredDraft,
  assignments,
  replaceAssignments,
}: AutosaveOptions) {
  const [status, setStatus] = useState<SaveStatus>("saved");
  const [error, setError] = useState<string | null>(null);
  const [conflict, setConflict] = useState<Conflict | null>(() =>
    restoredDraft && restoredDraft.version !== saved.version
      ? { theirs: saved, base: restoredDraft.base, mine: restoredDraft.assignments }
      : null,
  );
  const [submittedAt, setSubmittedAt] = useState<string | null>(saved.submitted_at);
  const [retrying, setRetrying] = useState(false);

  const base = useRef<readonly number[]>(saved.assignments);
  const version = useRef(saved.version);
  const latest = useRef(assignments);
  const inFlight = useRef<Promise<boolean> | null>(null);
  const blocked = useRef(readOnly || conflict !== null || saved.submitted_at !== null);
  const scope = target.draftScope;
  const timer = useRef<number | undefined>(undefined);
  const reviewTimer = useRef<number | undefined>(undefined);
  /** Turns reviewed that no save has carried yet. */
  const reviewedPending = useRef(new Set<number>());
  const time = useActiveTime();

  const takeReviewed = useCallback((): number[] => {
    const turns = [...reviewedPending.current].sort((a, b) => a - b);
    reviewedPending.current.clear();
    return turns;
  }, []);
  const giveBackReviewed = useCallback((turns: readonly number[]) => {
    turns.forEach((turn) => reviewedPending.current.add(turn));
  }, []);

  const saveNow = useCallback(async (): Promise<boolean> => {
    window.clearTimeout(timer.current);
    while (inFlight.current) await inFlight.current;
    if (blocked.current) return false;
    window.clearTimeout(reviewTimer.current);
    const sending = latest.current;
    const runs = diffRuns(base.current, sending);
    if (runs.length === 0 && reviewedPending.current.size === 0) {
      setStatus("saved");
      return true;
    }
    const seconds = time.take();
    const reviewed = takeReviewed();
    setStatus("saving");
    const request = target.save(version.current, runs.map(toOperation), seconds, reviewed).then(
      (annotation) => {
        base.current = annotation.assignments;
        version.current = annotation.version;
        setError(null);
        if (sameAssignments(latest.current, annotation.assignments)) {
          clearDraft(scope, userId);
          setStatus("saved");
        } else {
          storeDraft(scope, userId, {
            version: annotation.version,
            base: annotation.assignments,
            assignments: [...latest.current],
          });
          setStatus("unsaved");
        }
        return true;
      },
      (reason: unknown) => {
        time.giveBack(seconds);
        giveBackReviewed(reviewed);
        if (reason instanceof ConflictError) {
          blocked.current = true;
          if (reason.current.submitted_at) setSubmittedAt(reason.current.submitted_at);
          setConflict({ theirs: reason.current, base: base.current, mine: latest.current });
          setStatus("conflict");
        } else if (reason instanceof NetworkError) {
          setStatus("offline");
          setError(reason.message);
        } else {
          setStatus("error");
          setError(describeSaveError(reason));
          setRetrying(reason instanceof ApiError && reason.status >= 500);
        }
        return false;
      },
    );
    inFlight.current = request;
    try {
      return await request;
    } finally {
      inFlight.current = null;
    }
  }, [giveBackReviewed, scope, takeReviewed, target, time, userId]);

  /** Records turns as reviewed; they go with the next save, which comes soon if no edit does. */
  const markReviewed = useCallback(
    (turns: readonly number[]) => {
      if (!target.recordsReview || blocked.current) return;
      const before = reviewedPending.current.size;
      turns.forEach((turn) => reviewedPending.current.add(turn));
      if (reviewedPending.current.size === before) return;
      window.clearTimeout(reviewTimer.current);
      reviewTimer.current = window.setTimeout(() => void saveNow(), REVIEW_SAVE_DELAY_MS);
    },
    [saveNow, target.recordsReview],
  );

  useEffect(() => {
    latest.current = assignments;
    if (sameAssignments(assignments, base.current)) {
      if (!blocked.current) {
        setStatus((current) => (current === "saving" ? current : "saved"));
        clearDraft(scope, userId);
      }
      return;
    }
    storeDraft(scope, userId, {
      version: version.current,
      base: [...base.current],
      assignments: [...assignments],
    });
    if (blocked.current) return;
    setStatus((current) => (current === "saving" || current === "offline" ? current : "unsaved"));
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => void saveNow(), SAVE_DELAY_MS);
  }, [assignments, scope, saveNow, userId]);

  // Offline or the server failing: try again every few seconds, and at once when the
  // network is back. A refusal (4xx) would only be refused again, so it waits for the next
  // edit or an explicit save.
  useEffect(() => {
    if (status !== "offline" && !(status === "error" && retrying)) return;
    const retry = () => void saveNow();
    const interval = window.setInterval(retry, RETRY_DELAY_MS);
    window.addEventListener("online", retry);
    return () => {
      window.clearInterval(interval);
      window.removeEventListener("online", retry);
    };
  }, [retrying, saveNow, status]);

  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (!sameAssignments(latest.current, base.current)) event.preventDefault();
    };
    window.addEventListener("beforeunload", warn);
    return () => {
      window.removeEventListener("beforeunload", warn);
      window.clearTimeout(timer.current);
      window.clearTimeout(reviewTimer.current);
    };
  }, []);

  const adopt = useCallback(
    (theirs: AnnotationData, next: readonly number[]) => {
      base.current = theirs.assignments;
      version.current = theirs.version;
      latest.current = next;
      blocked.current = theirs.submitted_at !== null;
      setConflict(null);
      setError(null);
      replaceAssignments(next);
    },
    [replaceAssignments],
  );

  /** Re-applies the annotator's edits on top of the other version and saves the result. */
  const keepMine = useCallback((): ConflictOutcome | null => {
    if (!conflict || conflict.theirs.submitted_at) return null;
    const merged = rebase(conflict.base, conflict.mine, conflict.theirs.assignments);
    adopt(conflict.theirs, merged.assignments);
    void saveNow();
    return { overridden: merged.overridden, keptWholeVersion: merged.keptWholeVersion };
  }, [adopt, conflict, saveNow]);

  /** Drops the annotator's unsaved edits for the other version. */
  const takeTheirs = useCallback(() => {
    if (!conflict) return;
    adopt(conflict.theirs, conflict.theirs.assignments);
    clearDraft(scope, userId);
    setStatus("saved");
  }, [adopt, conflict, scope, userId]);

  /** Submits; with `acceptUnreviewed`, the turns never reviewed are accepted without review. */
  const submit = useCallback(
    async ({ acceptUnreviewed = false }: { acceptUnreviewed?: boolean } = {}): Promise<void> => {
      if (!(await saveNow())) throw new Error("Your latest changes are not saved yet.");
      const seconds = time.take();
      const reviewedTurns = takeReviewed();
      try {
        const annotation = await target.submit(version.current, seconds, {
          reviewedTurns,
          acceptUnreviewed,
        });
        version.current = annotation.version;
        blocked.current = true;
        setSubmittedAt(annotation.submitted_at);
      } catch (reason) {
        time.giveBack(seconds);
        giveBackReviewed(reviewedTurns);
        if (reason instanceof ConflictError) {
          blocked.current = true;
          setConflict({ theirs: reason.current, base: base.current, mine: latest.current });
          setStatus("conflict");
          throw new Error("Someone else changed this document meanwhile; see the message above.", {
            cause: reason,
          });
        }
        throw reason;
      }
    },
    [giveBackReviewed, saveNow, takeReviewed, target, time],
  );

  /** Takes the submission back; the server says why when it cannot (a closed iteration). */
  const reopen = useCallback(async (): Promise<void> => {
    const annotation = await target.reopen(version.current);
    version.current = annotation.version;
    blocked.current = false;
    setSubmittedAt(null);
    setStatus("saved");
  }, [target]);

  return {
    status,
    error,
    conflict,
    submittedAt,
    saveNow,
    keepMine,
    takeTheirs,
    submit,
    reopen,
    markReviewed,
  };
}
