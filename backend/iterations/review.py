"""Reads behind confidence-guided review: which turns of a document the editor's review mode
shows, and what an iteration's review threshold implies over its batch.

The threshold applies to the confidences of each document's current pre-alignment (the one the
editor shows); with a learned decision, or the shipped prior calibration for turn-path
parameters without one (`workers.align.learning.prior`), those are calibrated probabilities,
so the expected number of wrong labels among the turns accepted unread is the sum of their
(1 - confidence). The review mode also shows the turns next to each one the annotator changes,
to the end of its run, so where the calibrating decision measured how errors run together
(`PreAlignment.run_correlation`), the plans count the runs the annotator will follow
(`workers.align.annotation.review.expected_left`). An iteration without a threshold of its own
uses `auto`: the lowest threshold whose estimated residual error is at most
`DEFAULT_RESIDUAL_ERROR_TARGET` over the batch.

Once annotators have submitted documents, the turns they read say how far the calibration is
off on this batch: `after_review` re-estimates the residual error of the submitted gold from
that (`workers.align.annotation.review.residual_error_after_review`). Where the iteration asks
for a spot check, the turns drawn at random among those left unread
(`backend.alignments.services.spot_check`) measure it on the batch itself, and `after_review`
weighs the two (`workers.align.annotation.spot_check.residual_error_spot_checked`) once every
submitted document was checked: both figures must count the same turns.
"""

from dataclasses import dataclass

import numpy as np
from django.contrib.auth.models import User

from backend.alignments.models import Annotation, PreAlignment
from backend.alignments.selectors import caller_annotation, current_pre_alignments, turns_read
from backend.documents.models import Document
from backend.iterations.models import Iteration
from workers.align.annotation.review import (
    DEFAULT_RESIDUAL_ERROR_TARGET,
    ReviewedDocument,
    ReviewPlan,
    plan_review,
    residual_error_after_review,
    threshold_for_residual_error,
    turns_to_review,
)
from workers.align.annotation.spot_check import (
    SPOT_CHECK_SHARE,
    SpotCheckedDocument,
    SpotCheckPrecision,
    model_error_sd,
    residual_error_spot_checked,
    spot_check_precision,
    spot_checked_error_sd,
)


@dataclass(frozen=True)
class BatchConfidences:
    """The batch's pre-alignments that have a confidence per turn, as the engine reads them,
    with the correlation of neighbouring turns' errors that the review mode's following of
    changes counts on (None where no learned decision measured one) and what calibrated
    them."""

    confidences: list[np.ndarray]
    run_correlations: list[float | None]
    calibrations: list[str]

    @property
    def turns(self) -> int:
        return sum(len(confidences) for confidences in self.confidences)


@dataclass(frozen=True)
class AfterReview:
    """What the submitted documents' review found, and the residual error it leaves."""

    documents: int
    turns: int
    turns_read: int
    shown_read: int
    """Turns the review mode showed that were read: what the re-estimate learns from."""
    read_kept: float
    """Share of those whose pre-aligned label the annotators kept."""
    read_expected_kept: float
    """The same share as the confidences expected it."""
    estimated_residual_error: float
    estimated_residual_error_sd: float
    """How far that estimate may miss (a standard deviation, as a share of the turns): the
    model's, larger on fewer documents."""
    spot_checked_documents: int
    """Submitted documents whose unread turns were spot-checked, or that left none unread."""
    spot_checked_turns: int
    """Turns drawn for those spot checks."""
    estimated_residual_error_spot_checked: float | None
    """The estimate weighed with the spot checks'; None unless every document counts above."""
    estimated_residual_error_spot_checked_sd: float | None
    """How far that estimate may miss (a standard deviation, as a share of the turns)."""


@dataclass(frozen=True)
class Calibrations:
    """How many of the batch's pre-alignments each kind of calibration made probabilities of
    (`PreAlignment.Calibration`): the estimates are as good as these are on this batch."""

    learned: int
    prior: int
    none: int


@dataclass(frozen=True)
class IterationReview:
    """An iteration's review threshold (`None` for `auto`), the plans it and `auto` make, and
    once documents are submitted, the residual error their review leaves."""

    threshold: float | None
    spot_check: float | None
    target: float
    documents: int
    turns: int
    calibrations: Calibrations
    current: ReviewPlan
    automatic: ReviewPlan
    preview: ReviewPlan | None
    spot_check_precision: SpotCheckPrecision
    """What the spot check set (or, while none is, one of SPOT_CHECK_SHARE) would draw of the
    turns the threshold in force leaves unread, and how far the estimate with it may miss."""
    after_review: AfterReview | None


def batch_confidences(*, iteration: Iteration) -> BatchConfidences:
    document_ids = list(iteration.documents.values_list("pk", flat=True))
    usable = [
        pre_alignment
        for pre_alignment in current_pre_alignments(document_ids=document_ids).values()
        if _has_confidences(pre_alignment)
    ]
    return BatchConfidences(
        confidences=[np.asarray(p.confidences, dtype=np.float64) for p in usable],
        run_correlations=[p.run_correlation for p in usable],
        calibrations=[p.calibration for p in usable],
    )


def automatic_threshold(batch: BatchConfidences) -> float:
    return threshold_for_residual_error(
        batch.confidences, DEFAULT_RESIDUAL_ERROR_TARGET, batch.run_correlations
    )


def _plan(batch: BatchConfidences, threshold: float) -> ReviewPlan:
    return plan_review(batch.confidences, threshold, batch.run_correlations)


def iteration_review(
    *, iteration: Iteration, preview: float | None = None, preview_target: float | None = None
) -> IterationReview:
    """The threshold set, the plan it makes (or `auto`'s when none is set), `auto`'s own, and
    the plan of a threshold the lead is considering: a `preview` threshold, or the lowest whose
    estimate meets a `preview_target` residual error, as `auto` meets its own."""
    batch = batch_confidences(iteration=iteration)
    if preview_target is not None:
        preview = threshold_for_residual_error(
            batch.confidences, preview_target, batch.run_correlations
        )
    automatic = _plan(batch, automatic_threshold(batch))
    threshold = iteration.review_threshold
    current = automatic if threshold is None else _plan(batch, threshold)
    return IterationReview(
        threshold=threshold,
        spot_check=iteration.review_spot_check,
        target=DEFAULT_RESIDUAL_ERROR_TARGET,
        documents=len(batch.confidences),
        turns=batch.turns,
        calibrations=Calibrations(
            **{kind: batch.calibrations.count(kind) for kind in PreAlignment.Calibration.values}
        ),
        current=current,
        automatic=automatic,
        preview=(_plan(batch, preview) if preview is not None else None),
        spot_check_precision=_spot_check_precision(
            batch, current, iteration.review_spot_check or SPOT_CHECK_SHARE
        ),
        after_review=after_review(iteration=iteration, threshold=current.threshold),
    )


def _spot_check_precision(
    batch: BatchConfidences, plan: ReviewPlan, share: float
) -> SpotCheckPrecision:
    """The pool is the turns the plan leaves unread; following changes reads a few of them
    too, so a real check draws a little less."""
    unread = batch.turns - round(plan.shown_share * batch.turns)
    return spot_check_precision(
        documents=len(batch.confidences),
        turns=batch.turns,
        unread=unread,
        expected_wrong=plan.estimated_residual_error * batch.turns,
        share=share,
    )


def after_review(*, iteration: Iteration, threshold: float) -> AfterReview | None:
    """The residual error of the iteration's submitted gold, its unread turns' confidences
    shifted by what the shown turns' review found; None before a document with confidences is
    submitted.

    A document counts once one of its annotations is submitted; a turn is read when any
    submitted annotation of it read or changed it, and kept when none changed it. The
    confidences are those of the pre-alignment the annotations were made on, and the shown
    turns those the review mode shows of it at `threshold`, the iteration's in force."""
    submitted: dict[int, list[Annotation]] = {}
    for annotation in (
        Annotation.objects.filter(document__iteration=iteration, submitted_at__isnull=False)
        .select_related("pre_alignment")
        .only(
            "document_id",
            "assignments",
            "changed",
            "reviewed",
            "spot_check",
            "pre_alignment__confidences",
            "pre_alignment__labels",
            "pre_alignment__run_correlation",
        )
        .order_by("document_id", "pk")
    ):
        submitted.setdefault(annotation.document_id, []).append(annotation)
    reviewed_annotations = [
        (reviewed, annotations)
        for annotations in submitted.values()
        if (reviewed := _reviewed_document(annotations, threshold)) is not None
    ]
    if not reviewed_annotations:
        return None
    documents = [reviewed for reviewed, _ in reviewed_annotations]
    spot_checks = [
        check
        for reviewed, annotations in reviewed_annotations
        if (check := _spot_checked_document(annotations, reviewed)) is not None
    ]
    estimated = residual_error_after_review(documents)
    evidence = np.concatenate([d.shown & d.read for d in documents])
    kept = np.concatenate([d.kept for d in documents])[evidence]
    confidences = np.concatenate([d.confidences for d in documents])[evidence]
    turns = len(evidence)
    every_checked = len(spot_checks) == len(documents)
    return AfterReview(
        documents=len(documents),
        turns=turns,
        turns_read=int(sum(d.read.sum() for d in documents)),
        shown_read=len(kept),
        read_kept=float(kept.mean()) if len(kept) else 0.0,
        read_expected_kept=float(confidences.mean()) if len(kept) else 0.0,
        estimated_residual_error=estimated,
        estimated_residual_error_sd=model_error_sd(len(documents)),
        spot_checked_documents=len(spot_checks),
        spot_checked_turns=int(sum(check.checked.sum() for check in spot_checks)),
        estimated_residual_error_spot_checked=(
            residual_error_spot_checked(estimated * turns, turns, spot_checks)
            if every_checked
            else None
        ),
        estimated_residual_error_spot_checked_sd=(
            spot_checked_error_sd(turns, spot_checks) if every_checked else None
        ),
    )


def _reviewed_document(annotations: list[Annotation], threshold: float) -> ReviewedDocument | None:
    """None when the annotations were not all made on one pre-alignment with confidences."""
    pre_alignments = {annotation.pre_alignment_id for annotation in annotations}
    pre_alignment = annotations[0].pre_alignment
    if len(pre_alignments) != 1 or pre_alignment is None or not _has_confidences(pre_alignment):
        return None
    confidences = np.asarray(pre_alignment.confidences, dtype=np.float64)
    if any(len(annotation.changed) != len(confidences) for annotation in annotations):
        return None
    changed = np.any([annotation.changed for annotation in annotations], axis=0)
    read = np.any([turns_read(annotation) for annotation in annotations], axis=0)
    shown = turns_to_review(confidences, threshold)
    return ReviewedDocument(
        confidences=confidences,
        shown=shown,
        read=read,
        kept=read & ~changed,
        run_correlation=pre_alignment.run_correlation,
    )


def _spot_checked_document(
    annotations: list[Annotation], reviewed: ReviewedDocument
) -> SpotCheckedDocument | None:
    """The document's spot check, as the first annotation that drew one made it and left it;
    an empty one when its review left no turn unread; None when turns were left unread
    unchecked."""
    checked_by = next((a for a in annotations if a.spot_check), None)
    turns = len(reviewed.confidences)
    if checked_by is None:
        if reviewed.read.all():
            empty = np.zeros(turns, dtype=bool)
            return SpotCheckedDocument(empty, empty, empty, 1.0 - reviewed.confidences)
        return None
    check = checked_by.spot_check
    pool = np.zeros(turns, dtype=bool)
    pool[check["pool"]] = True
    drawn = np.zeros(turns, dtype=bool)
    drawn[check["drawn"]] = True
    return SpotCheckedDocument.from_labels(
        pool, drawn, check["labels_before"], checked_by.assignments, reviewed.confidences
    )


@dataclass(frozen=True)
class DocumentReview:
    """What the editor's review mode shows of one document: the turns, from 0, in order."""

    iteration: int | None
    threshold: float | None
    automatic: bool
    turns: list[int]
    estimated_residual_error: float | None
    spot_check: float | None
    """The share of the turns left unread that a spot check draws; None for no spot check."""
    spot_check_turns: list[int]
    """The turns drawn for the caller's spot check, from 0, in order; none before the draw."""


def document_review(*, document: Document, annotator: User) -> DocumentReview:
    """The turns the review mode shows at the document's iteration's threshold, and the
    `annotator`'s spot check; none (and no threshold) for a document outside an iteration or
    whose pre-alignment has no confidences: the annotator then reads every turn."""
    iteration = document.iteration
    pre_alignment = current_pre_alignments(document_ids=[document.pk]).get(document.pk)
    if iteration is None or pre_alignment is None or not _has_confidences(pre_alignment):
        return DocumentReview(
            iteration=iteration.pk if iteration else None,
            threshold=None,
            automatic=False,
            turns=[],
            estimated_residual_error=None,
            spot_check=None,
            spot_check_turns=[],
        )
    threshold = iteration.review_threshold
    if threshold is None:
        threshold = automatic_threshold(batch_confidences(iteration=iteration))
    confidences = np.asarray(pre_alignment.confidences, dtype=np.float64)
    plan = plan_review([confidences], threshold, [pre_alignment.run_correlation])
    shown = turns_to_review(confidences, threshold)
    return DocumentReview(
        iteration=iteration.pk,
        threshold=threshold,
        automatic=iteration.review_threshold is None,
        turns=np.flatnonzero(shown).tolist(),
        estimated_residual_error=plan.estimated_residual_error,
        spot_check=iteration.review_spot_check,
        spot_check_turns=_spot_check_turns(document, annotator),
    )


def _spot_check_turns(document: Document, annotator: User) -> list[int]:
    annotation = caller_annotation(document=document, annotator=annotator)
    return list(annotation.spot_check.get("drawn", [])) if annotation else []


def _has_confidences(pre_alignment: PreAlignment) -> bool:
    return bool(pre_alignment.confidences) and len(pre_alignment.confidences) == len(
        pre_alignment.labels
    )
