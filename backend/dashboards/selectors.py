"""Reads behind the lead's dashboards, shaped for charts: one series per iteration, values
per document (for box plots and histograms) beside their summaries.

Nothing here writes or caches: every figure is recomputed from the records closing wrote,
the annotations and the jobs, so a dashboard never disagrees with the iteration pages.
"""

from collections import defaultdict
from datetime import datetime
from typing import TypedDict

import numpy as np
from django.db.models import QuerySet

from backend.alignments.models import Annotation
from backend.alignments.selectors import turns_read
from backend.core.errors import NotFound
from backend.documents.models import Document
from backend.iterations.accuracy import summarise
from backend.iterations.gold import CorpusCounts, corpus_counts
from backend.iterations.models import AccuracyRecord, Iteration
from backend.iterations.selectors import RECORD_METRICS
from backend.jobs.models import Job
from backend.projects.models import Project
from backend.tuning.models import TuningRun
from workers.align.learning.statistics import auroc, expected_calibration_error, reliability


class DocumentAccuracy(TypedDict):
    document: int
    name: str
    human_turn_accuracy: float
    human_word_accuracy: float
    segment_accuracy: float
    word_accuracy: float
    windowdiff: float | None


class Reliability(TypedDict):
    turns: int
    expected_calibration_error: float | None
    auroc: float | None
    bins: list[dict[str, float]]


class IterationAccuracy(TypedDict):
    """`summary` holds `summarise` of each of `RECORD_METRICS`."""

    iteration: Iteration
    documents: list[DocumentAccuracy]
    summary: dict[str, dict[str, float | int | None]]
    reliability: Reliability


def accuracy_by_iteration(*, project_id: int) -> list[IterationAccuracy]:
    """Per iteration (closed ones have values): each document's figures and, per metric,
    their distribution; the paper's Figure 3 and Table 2."""
    reliabilities = reliability_by_iteration(project_id=project_id)
    records: dict[int, list[AccuracyRecord]] = defaultdict(list)
    for record in (
        AccuracyRecord.objects.filter(iteration__project_id=project_id)
        .select_related("document")
        .defer(
            "pre_alignment_labels", "gold_labels", "document__segments_json", "document__turns_json"
        )
        .order_by("iteration_id", "document__name", "document_id")
    ):
        records[record.iteration_id].append(record)
    return [
        {
            "iteration": iteration,
            "documents": [
                {
                    "document": record.document_id,
                    "name": record.document.name,
                    "human_turn_accuracy": record.human_turn_accuracy,
                    "human_word_accuracy": record.human_word_accuracy,
                    "segment_accuracy": record.segment_accuracy,
                    "word_accuracy": record.word_accuracy,
                    "windowdiff": record.windowdiff,
                }
                for record in records[iteration.pk]
            ],
            "summary": {
                metric: summarise([getattr(record, metric) for record in records[iteration.pk]])
                for metric in RECORD_METRICS
            },
            "reliability": reliabilities.get(iteration.pk, NO_RELIABILITY),
        }
        for iteration in _iterations(project_id)
    ]


NO_RELIABILITY: Reliability = {
    "turns": 0,
    "expected_calibration_error": None,
    "auroc": None,
    "bins": [],
}


def reliability_by_iteration(*, project_id: int) -> dict[int, Reliability]:
    """Per closed iteration, how far the pre-alignment's confidence was from the share of
    turns the gold kept: per bin of confidence its mean, the observed share and the count,
    and the count-weighted gap (expected calibration error); and how well the confidence
    ranks the turns the gold kept above the others (AUROC, null when the gold kept all or
    none: a ranking needs both). A document whose pre-alignment
    was recomputed after its record was written is left out: its confidences no longer
    belong to the labels the record scored."""
    outcomes: dict[int, tuple[list[float], list[bool]]] = defaultdict(lambda: ([], []))
    records = AccuracyRecord.objects.filter(
        iteration__project_id=project_id, pre_alignment__isnull=False
    ).select_related("pre_alignment")
    for record in records.only(
        "iteration_id",
        "pre_alignment_labels",
        "gold_labels",
        "pre_alignment__labels",
        "pre_alignment__confidences",
    ):
        shown = record.pre_alignment
        assert shown is not None
        if shown.labels != record.pre_alignment_labels or len(shown.confidences) != len(
            record.gold_labels
        ):
            continue
        confidences, right = outcomes[record.iteration_id]
        confidences += shown.confidences
        right += [
            p == g for p, g in zip(record.pre_alignment_labels, record.gold_labels, strict=True)
        ]
    return {
        iteration_id: _reliability(np.asarray(confidences), np.asarray(right))
        for iteration_id, (confidences, right) in outcomes.items()
        if confidences
    }


def _reliability(confidences: np.ndarray, right: np.ndarray) -> Reliability:
    ranking = auroc(confidences, right)
    return {
        "turns": len(confidences),
        "expected_calibration_error": expected_calibration_error(confidences, right),
        "auroc": None if np.isnan(ranking) else ranking,
        "bins": reliability(confidences, right),
    }


def tuning_run_for(*, project_id: int, iteration_id: int | None) -> TuningRun:
    """The iteration's tuning run, or the project's latest."""
    runs = TuningRun.objects.filter(project_id=project_id).select_related("job", "best")
    if iteration_id is None:
        run = runs.order_by("-created_at", "-id").first()
        if run is None:
            raise NotFound(f"Project {project_id} has no tuning run yet.")
        return run
    run_id = (
        Iteration.objects.filter(project_id=project_id, pk=iteration_id)
        .values_list("tuning_run_id", flat=True)
        .first()
    )
    run = runs.filter(pk=run_id).first() if run_id else None
    if run is None:
        raise NotFound(f"Project {project_id} has no tuning run for iteration {iteration_id}.")
    return run


class Effort(TypedDict):
    turns_changed: int
    turns_reviewed: int
    turns_spot_checked: int
    """Of the turns reviewed, those drawn for a spot check."""
    turns_accepted_without_review: int
    seconds_spent: int
    submitted: bool


class DocumentEffort(Effort):
    document: int
    name: str
    turns: int


class AnnotatorDocuments(TypedDict):
    iteration: int
    number: int
    annotator: int
    username: str
    documents: list[DocumentEffort]


class AnnotatorEffort(AnnotatorDocuments):
    document_count: int
    submitted_count: int
    turns: int
    turns_changed: int
    turns_reviewed: int
    turns_spot_checked: int
    turns_accepted_without_review: int
    seconds_spent: int
    turns_changed_per_document: float
    seconds_per_document: float


def annotator_effort(*, project_id: int) -> list[AnnotatorEffort]:
    """Per iteration and annotator: documents, turns changed, turns reviewed (visited,
    confirmed or changed in the editor; of them, those drawn for a spot check), turns accepted
    without review and seconds, in total,
    per document and per turn, with each document's own figures for a scatter or histogram."""
    rows: dict[tuple[int, int], AnnotatorDocuments] = {}
    annotations = (
        Annotation.objects.filter(
            document__project_id=project_id, document__iteration__isnull=False
        )
        .select_related("annotator", "document__iteration")
        .only(
            *EFFORT_FIELDS, "document__name", "document__turn_count", "document__iteration__number"
        )
        .order_by("document__iteration__number", "annotator__username", "document__name")
    )
    for annotation in annotations:
        iteration = annotation.document.iteration
        if iteration is None:
            continue
        key = (iteration.pk, annotation.annotator_id)
        row = rows.setdefault(
            key,
            {
                "iteration": iteration.pk,
                "number": iteration.number,
                "annotator": annotation.annotator_id,
                "username": annotation.annotator.username,
                "documents": [],
            },
        )
        row["documents"].append(
            {
                "document": annotation.document_id,
                "name": annotation.document.name,
                "turns": annotation.document.turn_count,
                **_annotation_effort(annotation),
            }
        )
    return [_effort_totals(row) for row in rows.values()]


EFFORT_FIELDS = (
    "changed",
    "reviewed",
    "accepted_without_review",
    "spot_check",
    "seconds_spent",
    "submitted_at",
    "annotator__username",
)
"""What an annotation's effort is read from."""


class AnnotatorEffortOnDocument(Effort):
    annotator: int
    username: str


class DocumentAnnotations(TypedDict):
    document: int
    name: str
    turns: int
    annotations: list[AnnotatorEffortOnDocument]


class IterationDocuments(TypedDict):
    iteration: int
    number: int
    documents: list[DocumentAnnotations]


def document_effort(
    *, project_id: int, iteration_id: int | None = None
) -> list[IterationDocuments]:
    """Per iteration (or only `iteration_id`'s), each of its documents with each annotator's
    effort on it: turns changed, reviewed and accepted without review, active seconds, and
    whether it is submitted. A document nobody has opened yet is listed with no annotation,
    so the table shows the whole batch."""
    iterations = [
        iteration
        for iteration in _iterations(project_id)
        if iteration_id is None or iteration.pk == iteration_id
    ]
    if iteration_id is not None and not iterations:
        raise NotFound(f"Project {project_id} has no iteration {iteration_id}.")
    documents = Document.objects.filter(iteration__in=iterations).only(
        "name", "turn_count", "iteration_id"
    )
    annotations = (
        Annotation.objects.filter(document__in=documents)
        .select_related("annotator")
        .only(*EFFORT_FIELDS, "document_id")
        .order_by("annotator__username", "annotator_id")
    )
    by_document: dict[int, list[AnnotatorEffortOnDocument]] = defaultdict(list)
    for annotation in annotations:
        by_document[annotation.document_id].append(
            {
                "annotator": annotation.annotator_id,
                "username": annotation.annotator.username,
                **_annotation_effort(annotation),
            }
        )
    by_iteration: dict[int, list[DocumentAnnotations]] = defaultdict(list)
    for document in documents.order_by("name", "pk"):
        assert document.iteration_id is not None
        by_iteration[document.iteration_id].append(
            {
                "document": document.pk,
                "name": document.name,
                "turns": document.turn_count,
                "annotations": by_document[document.pk],
            }
        )
    return [
        {
            "iteration": iteration.pk,
            "number": iteration.number,
            "documents": by_iteration[iteration.pk],
        }
        for iteration in iterations
    ]


def _annotation_effort(annotation: Annotation) -> Effort:
    return {
        "turns_changed": sum(annotation.changed),
        "turns_reviewed": sum(turns_read(annotation)),
        "turns_spot_checked": len(annotation.spot_check.get("drawn", [])),
        "turns_accepted_without_review": sum(annotation.accepted_without_review),
        "seconds_spent": annotation.seconds_spent,
        "submitted": annotation.submitted_at is not None,
    }


def _effort_totals(row: AnnotatorDocuments) -> AnnotatorEffort:
    documents = row["documents"]
    count = len(documents)
    turns = sum(document["turns"] for document in documents)
    changed = sum(document["turns_changed"] for document in documents)
    reviewed = sum(document["turns_reviewed"] for document in documents)
    spot_checked = sum(document["turns_spot_checked"] for document in documents)
    accepted = sum(document["turns_accepted_without_review"] for document in documents)
    seconds = sum(document["seconds_spent"] for document in documents)
    return {
        **row,
        "document_count": count,
        "submitted_count": sum(document["submitted"] for document in documents),
        "turns": turns,
        "turns_changed": changed,
        "turns_reviewed": reviewed,
        "turns_spot_checked": spot_checked,
        "turns_accepted_without_review": accepted,
        "seconds_spent": seconds,
        "turns_changed_per_document": changed / count,
        "seconds_per_document": seconds / count,
    }


class Corpus(TypedDict):
    """`CorpusCounts.as_dict`, as `corpus_at_close` stores it."""

    gold_documents: int
    gold_pairs: int
    automatic_documents: int
    trusted_pairs: int


class CorpusAtClose(Corpus):
    iteration: int
    number: int
    closed_at: datetime


class CorpusGrowth(TypedDict):
    iterations: list[CorpusAtClose]
    now: Corpus


def corpus_growth(*, project: Project) -> CorpusGrowth:
    """Gold and trusted automatic pairs as each iteration closed, and now."""
    return {
        "iterations": [
            {
                "iteration": iteration.pk,
                "number": iteration.number,
                "closed_at": iteration.closed_at,
                "gold_documents": iteration.corpus_at_close["gold_documents"],
                "gold_pairs": iteration.corpus_at_close["gold_pairs"],
                "automatic_documents": iteration.corpus_at_close["automatic_documents"],
                "trusted_pairs": iteration.corpus_at_close["trusted_pairs"],
            }
            for iteration in _iterations(project.pk)
            if iteration.closed_at is not None and iteration.corpus_at_close
        ],
        "now": _corpus(corpus_counts(project=project)),
    }


def _corpus(counts: CorpusCounts) -> Corpus:
    return {
        "gold_documents": counts.gold_documents,
        "gold_pairs": counts.gold_pairs,
        "automatic_documents": counts.automatic_documents,
        "trusted_pairs": counts.trusted_pairs,
    }


def active_jobs(*, project_id: int) -> QuerySet[Job]:
    return Job.objects.filter(
        project_id=project_id, status__in=[Job.Status.QUEUED, Job.Status.RUNNING]
    ).order_by("created_at", "id")


def _iterations(project_id: int) -> list[Iteration]:
    """The iterations the loop went through; a cancelled one measured nothing."""
    return list(
        Iteration.objects.filter(project_id=project_id, cancelled_at__isnull=True)
        .select_related("pre_align_job", "tuning_run__job")
        .order_by("number")
    )
