"""Which turns an annotator must read, and how many wrong labels the rest leaves in the gold.

A pre-alignment's calibrated confidence (`workers.align.learning.turn_decision`) is, per turn,
the probability that its label is right. Confidence-guided review shows the annotator the turns
below a threshold, plus the turn across a segment boundary from each of them (an uncertain turn
next to a boundary means the boundary itself may be misplaced, and the error can sit on either
side), and the annotator accepts the rest unread. If the shown turns are fixed, the wrong
labels left in the gold are the hidden turns that were wrong, whose expected number is the sum
of their (1 - confidence): that is the estimated residual error a lead chooses a threshold by.

Everything is numpy on one document's per-turn arrays; labels are segment indices, -1 for a
turn left unaligned.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

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


def turns_to_review(confidences: np.ndarray, labels: np.ndarray, threshold: float) -> np.ndarray:
    """Bool mask of the turns to show: confidence below `threshold`, plus each such turn's
    neighbour (i-1 or i+1) whose label differs from its own, the other side of a boundary."""
    confidences = np.asarray(confidences, dtype=np.float64)
    labels = np.asarray(labels)
    uncertain = confidences < threshold
    shown = uncertain.copy()
    if len(labels) > 1:
        boundary_after = labels[:-1] != labels[1:]
        shown[1:] |= uncertain[:-1] & boundary_after
        shown[:-1] |= uncertain[1:] & boundary_after
    return shown


def expected_wrong(confidences: np.ndarray, shown: np.ndarray) -> float:
    """Expected number of wrong labels among the turns not shown."""
    confidences = np.asarray(confidences, dtype=np.float64)
    return float((1.0 - confidences[~np.asarray(shown, dtype=bool)]).sum())


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
    labels_per_document: Sequence[np.ndarray],
    threshold: float,
) -> ReviewPlan:
    """What `threshold` shows and leaves over the documents, pooled by turn."""
    n_turns = 0
    n_shown = 0
    wrong = 0.0
    for confidences, labels in zip(confidences_per_document, labels_per_document, strict=True):
        shown = turns_to_review(confidences, labels, threshold)
        n_turns += len(shown)
        n_shown += int(shown.sum())
        wrong += expected_wrong(confidences, shown)
    return ReviewPlan(
        threshold=float(threshold),
        shown_share=n_shown / n_turns if n_turns else 0.0,
        estimated_residual_error=wrong / n_turns if n_turns else 0.0,
    )


def threshold_for_residual_error(
    confidences_per_document: Sequence[np.ndarray],
    labels_per_document: Sequence[np.ndarray],
    target: float,
) -> float:
    """The lowest threshold (fewest turns shown) whose pooled estimated residual error is at
    most `target`. Raising the threshold only adds shown turns, so the error falls
    monotonically over the candidates and a bisection finds the first that qualifies; showing
    every turn leaves an error of 0, so one always does."""
    candidates = candidate_thresholds(confidences_per_document)

    def meets(index: int) -> bool:
        plan = plan_review(confidences_per_document, labels_per_document, candidates[index])
        return plan.estimated_residual_error <= target + ROUNDING

    low, high = 0, len(candidates) - 1
    while low < high:
        middle = (low + high) // 2
        if meets(middle):
            high = middle
        else:
            low = middle + 1
    return float(candidates[low])
