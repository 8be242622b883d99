"""Reads behind confidence-guided review: which turns of a document the editor's review mode
shows, and what an iteration's review threshold implies over its batch.

The threshold applies to the confidences of each document's current pre-alignment (the one the
editor shows); with a learned decision, or the shipped prior calibration for turn-path
parameters without one (`workers.align.learning.prior`), those are calibrated probabilities,
so the expected number of wrong labels among the turns accepted unread is the sum of their
(1 - confidence) (`workers.align.annotation.review`). An iteration without a threshold of
its own uses `auto`: the lowest threshold whose estimated residual error is at most
`DEFAULT_RESIDUAL_ERROR_TARGET` over the batch.
"""

from dataclasses import dataclass

import numpy as np

from backend.alignments.models import PreAlignment
from backend.alignments.selectors import current_pre_alignments
from backend.documents.models import Document
from backend.iterations.models import Iteration
from workers.align.annotation.review import (
    DEFAULT_RESIDUAL_ERROR_TARGET,
    ReviewPlan,
    plan_review,
    threshold_for_residual_error,
    turns_to_review,
)


@dataclass(frozen=True)
class BatchConfidences:
    """The batch's pre-alignments that have a confidence per turn, as the engine reads them."""

    confidences: list[np.ndarray]
    labels: list[np.ndarray]

    @property
    def turns(self) -> int:
        return sum(len(confidences) for confidences in self.confidences)


@dataclass(frozen=True)
class IterationReview:
    """An iteration's review threshold (`None` for `auto`) and the plans it and `auto` make."""

    threshold: float | None
    target: float
    documents: int
    turns: int
    current: ReviewPlan
    automatic: ReviewPlan
    preview: ReviewPlan | None


def batch_confidences(*, iteration: Iteration) -> BatchConfidences:
    document_ids = list(iteration.documents.values_list("pk", flat=True))
    usable = [
        pre_alignment
        for pre_alignment in current_pre_alignments(document_ids=document_ids).values()
        if _has_confidences(pre_alignment)
    ]
    return BatchConfidences(
        confidences=[np.asarray(p.confidences, dtype=np.float64) for p in usable],
        labels=[np.asarray(p.labels, dtype=np.int64) for p in usable],
    )


def automatic_threshold(batch: BatchConfidences) -> float:
    return threshold_for_residual_error(
        batch.confidences, batch.labels, DEFAULT_RESIDUAL_ERROR_TARGET
    )


def iteration_review(*, iteration: Iteration, preview: float | None = None) -> IterationReview:
    """The threshold set, the plan it makes (or `auto`'s when none is set), `auto`'s own, and
    the plan of a `preview` threshold the lead is considering."""
    batch = batch_confidences(iteration=iteration)
    automatic = plan_review(batch.confidences, batch.labels, automatic_threshold(batch))
    threshold = iteration.review_threshold
    current = (
        automatic if threshold is None else plan_review(batch.confidences, batch.labels, threshold)
    )
    return IterationReview(
        threshold=threshold,
        target=DEFAULT_RESIDUAL_ERROR_TARGET,
        documents=len(batch.confidences),
        turns=batch.turns,
        current=current,
        automatic=automatic,
        preview=(
            plan_review(batch.confidences, batch.labels, preview) if preview is not None else None
        ),
    )


@dataclass(frozen=True)
class DocumentReview:
    """What the editor's review mode shows of one document: the turns, from 0, in order."""

    iteration: int | None
    threshold: float | None
    automatic: bool
    turns: list[int]
    estimated_residual_error: float | None


def document_review(*, document: Document) -> DocumentReview:
    """The turns the review mode shows at the document's iteration's threshold; none (and no
    threshold) for a document outside an iteration or whose pre-alignment has no confidences:
    the annotator then reads every turn."""
    iteration = document.iteration
    pre_alignment = current_pre_alignments(document_ids=[document.pk]).get(document.pk)
    if iteration is None or pre_alignment is None or not _has_confidences(pre_alignment):
        return DocumentReview(
            iteration=iteration.pk if iteration else None,
            threshold=None,
            automatic=False,
            turns=[],
            estimated_residual_error=None,
        )
    threshold = iteration.review_threshold
    if threshold is None:
        threshold = automatic_threshold(batch_confidences(iteration=iteration))
    confidences = np.asarray(pre_alignment.confidences, dtype=np.float64)
    plan = plan_review([confidences], [np.asarray(pre_alignment.labels)], threshold)
    shown = turns_to_review(confidences, np.asarray(pre_alignment.labels), threshold)
    return DocumentReview(
        iteration=iteration.pk,
        threshold=threshold,
        automatic=iteration.review_threshold is None,
        turns=np.flatnonzero(shown).tolist(),
        estimated_residual_error=plan.estimated_residual_error,
    )


def _has_confidences(pre_alignment: PreAlignment) -> bool:
    return bool(pre_alignment.confidences) and len(pre_alignment.confidences) == len(
        pre_alignment.labels
    )
