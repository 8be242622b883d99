"""Which turns an annotator must read, and how many wrong labels the rest leaves in the gold.

A pre-alignment's calibrated confidence (`workers.align.learning.turn_decision`) is, per turn,
the probability that its label is right. Confidence-guided review shows the annotator the turns
below a threshold, and the annotator accepts the rest unread. A boundary that may be misplaced
shows through its turns' confidences: the turn across it from an uncertain one is shown when it
is itself uncertain. Showing it whatever its confidence (as the review mode first did) cost more
reading than it found errors: on two-fold calibrated pre-alignments of public_meetings, 3 % left
wrong needed 52 % of fold A's turns read with those neighbours and 46 % without (fold B,
checked after the choice: 30 % and 26 %); docs/experiments/2026-11-28-boundary-neighbours.md.

If the shown turns are fixed, the wrong labels left in the gold are the hidden turns that were
wrong, whose expected number is the sum of their (1 - confidence). The review mode also shows
the turns next to each one the annotator changes, to the end of each run of wrong turns
(`next_to_changes`), so where the calibrating decision measured how errors run together, the
expected number left is that of wrong turns whose whole run is hidden
(`workers.align.annotation.error_runs`): that is the estimated residual error a lead chooses a
threshold by (`expected_left`).

That estimate trusts a calibration fitted on other documents. Once annotators have read the
shown turns, what they kept and changed says how far the calibration is off on *these*
documents, and `residual_error_after_review` moves the hidden turns' confidences by as much
(one logit shift per document, drawn towards the batch's), so the estimate of the gold's
error reads the review's outcome as well as the calibration. The same shift says how much
further one document's review would have to go to leave no more than the plan expected of it
(`threshold_after_review`: measured, and not run by the editor, as it over-reads where the
calibration is wrong below the threshold only).

Everything is numpy on one document's per-turn arrays.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from workers.align.annotation.error_runs import (
    doubts_given_read,
    expected_wrong_after_following,
)
from workers.align.annotation.logit_shift import fit_logit_shift, logit, sigmoid

DEFAULT_RESIDUAL_ERROR_TARGET = 0.02
"""The residual error `auto` aims at: 2 % of turns wrong in the resulting gold."""
CURVE_THRESHOLDS = (0.5, 0.7, 0.8, 0.9, 0.95)
"""Thresholds a report shows the review curve at (turns shown against residual error)."""
ROUNDING = 1e-9
"""A residual error this close above the target meets it: sums of the same doubts in another
order differ in the last bits, and a target such as 0.01 is often exactly reachable."""


@dataclass(frozen=True)
class ReviewPlan:
    """A threshold and what it implies over a set of documents, as shown to a lead."""

    threshold: float
    shown_share: float
    """Turns shown for review / all turns."""
    estimated_residual_error: float
    """Expected wrong labels among the turns accepted unread / all turns."""


def turns_to_review(confidences: np.ndarray, threshold: float) -> np.ndarray:
    """Bool mask of the turns to show: those whose confidence is below `threshold`."""
    return np.asarray(confidences, dtype=np.float64) < threshold


def expected_wrong(confidences: np.ndarray, shown: np.ndarray) -> float:
    """Expected number of wrong labels among the turns not shown."""
    confidences = np.asarray(confidences, dtype=np.float64)
    return float((1.0 - confidences[~np.asarray(shown, dtype=bool)]).sum())


def expected_left(
    confidences: np.ndarray, shown: np.ndarray, run_correlation: float | None
) -> float:
    """Expected number of wrong labels a review of the `shown` turns leaves: with no
    `run_correlation`, the annotator reads the shown turns only (`expected_wrong`); with one,
    it also follows each change to its neighbours, to the end of the run
    (`workers.align.annotation.error_runs`)."""
    if run_correlation is None:
        return expected_wrong(confidences, shown)
    return expected_wrong_after_following(confidences, shown, run_correlation)


def estimated_residual_error(confidences: np.ndarray, shown: np.ndarray) -> float:
    """Expected share of all turns left wrong when the shown ones are fixed (0 for no turns)."""
    n_turns = len(confidences)
    return expected_wrong(confidences, shown) / n_turns if n_turns else 0.0


def candidate_thresholds(confidences_per_document: Sequence[np.ndarray]) -> np.ndarray:
    """Every threshold that shows a different set of turns, ascending: 0 (none uncertain),
    each distinct confidence (the turns strictly below it) and just above the largest (all)."""
    pooled = np.concatenate(
        [np.zeros(0)] + [np.asarray(c, np.float64) for c in confidences_per_document]
    )
    distinct = np.unique(pooled)
    above_all = np.nextafter(distinct[-1], np.inf) if len(distinct) else 0.0
    return np.unique(np.concatenate([[0.0], distinct, [above_all]]))


def plan_review(
    confidences_per_document: Sequence[np.ndarray],
    threshold: float,
    run_correlations: Sequence[float | None] | None = None,
) -> ReviewPlan:
    """What `threshold` shows and leaves over the documents, pooled by turn; each document's
    annotator follows changes where its `run_correlations` entry is a correlation
    (`expected_left`), and none does without them."""
    n_turns = 0
    n_shown = 0
    wrong = 0.0
    correlations = run_correlations or [None] * len(confidences_per_document)
    for confidences, correlation in zip(confidences_per_document, correlations, strict=True):
        shown = turns_to_review(confidences, threshold)
        n_turns += len(shown)
        n_shown += int(shown.sum())
        wrong += expected_left(confidences, shown, correlation)
    return ReviewPlan(
        threshold=float(threshold),
        shown_share=n_shown / n_turns if n_turns else 0.0,
        estimated_residual_error=wrong / n_turns if n_turns else 0.0,
    )


def threshold_for_residual_error(
    confidences_per_document: Sequence[np.ndarray],
    target: float,
    run_correlations: Sequence[float | None] | None = None,
) -> float:
    """The lowest threshold (fewest turns shown) whose pooled estimated residual error
    (`plan_review`) is at most `target`. Raising the threshold only adds shown turns, so the
    error falls monotonically over the candidates and a bisection finds the first that
    qualifies; showing every turn leaves an error of 0, so one always does."""

    def meets(threshold: float) -> bool:
        plan = plan_review(confidences_per_document, threshold, run_correlations)
        return plan.estimated_residual_error <= target + ROUNDING

    return _lowest_that_qualifies(candidate_thresholds(confidences_per_document), meets)


def _lowest_that_qualifies(candidates: np.ndarray, qualifies: Callable[[float], bool]) -> float:
    """The first of the ascending `candidates` that `qualifies`, by bisection: the caller
    knows that once one qualifies every later one does, and that the last one does."""
    low, high = 0, len(candidates) - 1
    while low < high:
        middle = (low + high) // 2
        if qualifies(float(candidates[middle])):
            high = middle
        else:
            low = middle + 1
    return float(candidates[low])


SHIFT_PRIOR_PRECISION = 1.0
"""Precision of the normal priors on the logit shifts: the batch's around 0 (the calibration
is right until the review says otherwise), each document's around the batch's. A unit
precision, not tuned: a document whose 20 read turns all disagree with the calibration moves
about as far as its evidence says, one with 2 read turns little."""


@dataclass(frozen=True)
class ReviewedDocument:
    """One document after review: its pre-alignment's confidences, the turns the review mode
    showed, the turns an annotator read, and which of those kept the pre-aligned label (the
    others were wrong).

    Only the shown turns that were read tell how far the calibration is off: they were chosen
    by confidence alone. A turn read for another reason (a fix elsewhere broke the report's
    order against it, or the annotator went looking) was often chosen because it was wrong,
    and would make the calibration look worse than it is."""

    confidences: np.ndarray
    shown: np.ndarray
    read: np.ndarray
    kept: np.ndarray
    run_correlation: float | None = None
    """The correlation of neighbouring turns' wrongness when the annotator followed each
    change to its neighbours (a hidden turn is then less likely wrong next to a kept one:
    `workers.align.annotation.error_runs.doubts_given_read`); None when it read the shown
    turns only, or the turns it read say nothing of their hidden neighbours."""


def _shift_evidence(document: ReviewedDocument) -> tuple[np.ndarray, np.ndarray]:
    """The logits of the shown turns that were read, and whether each was kept."""
    evidence = np.asarray(document.shown, bool) & np.asarray(document.read, bool)
    return logit(document.confidences)[evidence], np.asarray(document.kept, bool)[evidence]


def _shifted_confidences(document: ReviewedDocument, prior_mean: float) -> np.ndarray:
    """Every turn's confidence shifted by the document's own evidence, fitted under a prior
    around `prior_mean`."""
    shift = fit_logit_shift(*_shift_evidence(document), prior_mean, SHIFT_PRIOR_PRECISION)
    return sigmoid(logit(document.confidences) + shift)


def doubts_after_review(documents: Sequence[ReviewedDocument]) -> list[np.ndarray]:
    """Per document and turn, the probability that the label left in the gold is wrong: 0 for
    a turn somebody read, else 1 - its confidence shifted by what the review found (the
    batch's shift fitted on every shown turn read, the document's on its own around the
    batch's), and where the annotator followed changes, conditioned on its read
    neighbours."""
    evidence = [_shift_evidence(document) for document in documents]
    batch_shift = fit_logit_shift(
        np.concatenate([np.zeros(0), *(logits for logits, _ in evidence)]),
        np.concatenate([np.zeros(0, bool), *(kept for _, kept in evidence)]),
        0.0,
        SHIFT_PRIOR_PRECISION,
    )
    return [
        _unread_doubts(document, _shifted_confidences(document, batch_shift))
        for document in documents
    ]


def _unread_doubts(document: ReviewedDocument, shifted: np.ndarray) -> np.ndarray:
    read = np.asarray(document.read, bool)
    if document.run_correlation is None:
        return np.where(read, 0.0, 1.0 - shifted)
    return doubts_given_read(shifted, read, document.kept, document.run_correlation)


def residual_error_after_review(documents: Sequence[ReviewedDocument]) -> float:
    """Expected share of all turns left wrong in the gold, pooled over the documents, the
    unread turns' confidences shifted by the review's outcome (0 for no turns)."""
    n_turns = sum(len(d.confidences) for d in documents)
    return float(sum(d.sum() for d in doubts_after_review(documents))) / n_turns if n_turns else 0.0


def confidences_after_review(document: ReviewedDocument) -> np.ndarray:
    """Every turn's confidence shifted by what one document's review found, as
    `doubts_after_review` shifts them, with the shift's prior around 0: no batch is known
    while one annotator reviews."""
    return _shifted_confidences(document, 0.0)


def threshold_after_review(document: ReviewedDocument, planned_threshold: float) -> float:
    """The lowest threshold, at least `planned_threshold`, whose hidden turns hold no more
    expected wrong labels by what the document's review found (`confidences_after_review`)
    than the plan's hidden turns held by the calibration.

    A calibration fitted on other documents can be optimistic on this one: its shown turns
    then turn out wrong more often than their confidence said, and so, likely, do its hidden
    ones. Reading on until the shifted doubt is back within the plan's keeps the residual error
    the lead chose; a review that agrees with the calibration, or finds it pessimistic, needs
    nothing more. A hidden turn read for another reason still counts as hidden, so the answer
    depends on the shown turns' outcome alone, not on when other turns were read. Thresholds
    only add turns as they rise and the shift does not depend on them, so the doubt left falls
    monotonically over the candidates and a bisection finds the first that qualifies."""
    confidences = np.asarray(document.confidences, np.float64)
    promised = expected_wrong(confidences, turns_to_review(confidences, planned_threshold))
    shifted = confidences_after_review(document)
    candidates = candidate_thresholds([confidences])
    candidates = np.concatenate([[planned_threshold], candidates[candidates > planned_threshold]])

    def keeps_the_plan(threshold: float) -> bool:
        hidden_doubt = expected_wrong(shifted, turns_to_review(confidences, threshold))
        return hidden_doubt <= promised + ROUNDING

    return _lowest_that_qualifies(candidates, keeps_the_plan)


def threshold_reached(
    confidences: np.ndarray, read: np.ndarray, kept: np.ndarray, planned_threshold: float
) -> float:
    """The threshold a document's review has come to: the plan's, raised to
    `threshold_after_review` each time every turn shown under the current one has been read,
    as long as that asks for more turns.

    Only a finished round tops up, so an annotator would be asked for more once, with a
    reason, rather than watch the shown turns grow as they go; and the same saved state always
    gives the same threshold, whoever computes it. The top-up is measured
    (docs/experiments/2026-11-28-review-top-up.md), not run by the editor. The threshold only
    rises, over the document's finitely many confidences, so the raises end."""
    confidences = np.asarray(confidences, np.float64)
    read = np.asarray(read, bool)
    threshold = float(planned_threshold)
    while not ((shown := turns_to_review(confidences, threshold)) & ~read).any():
        further = threshold_after_review(
            ReviewedDocument(confidences, shown, read, kept), planned_threshold
        )
        if further <= threshold:
            break
        threshold = further
    return threshold


def next_to_changes(changed: np.ndarray) -> np.ndarray:
    """Bool mask of the turns right before or after a changed turn.

    Wrong labels come in runs (a misplaced boundary puts several turns in a row in the wrong
    segment), so a turn the review found wrong says its neighbours may be wrong too, however
    confident the pre-alignment is of them. Reading them as the changes come, and the
    neighbours of those changed in turn, follows a run to its end, as the editor's review mode
    does (frontend/src/editor/review.ts, `turnsToReview`)."""
    changed = np.asarray(changed, dtype=bool)
    near = np.zeros_like(changed)
    near[:-1] |= changed[1:]
    near[1:] |= changed[:-1]
    return near
