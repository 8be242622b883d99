from typing import TypedDict

from django.contrib.auth.models import User
from django.db.models import Count, Prefetch, QuerySet

from backend.alignments.models import Annotation, ParameterSet, PreAlignment
from backend.alignments.selectors import parameter_set_named
from backend.core.errors import InvalidInput, NotFound
from backend.curation.models import Gold, GoldState
from backend.curation.selectors import gold_by_document, undecided_gold_state
from backend.documents.models import Document
from backend.iterations.accuracy import summarise
from backend.iterations.models import AccuracyRecord, Iteration
from backend.tuning.models import TuningCandidate

RECORD_METRICS = (
    "human_turn_accuracy",
    "human_word_accuracy",
    "segment_accuracy",
    "word_accuracy",
    "windowdiff",
)


class GoldView(TypedDict):
    state: str
    rule: str | None


class BatchItem(TypedDict):
    """One document of an iteration's batch as the lead inspects it (`BatchDocumentSerializer`)."""

    document: Document
    annotations: list[Annotation]
    pre_alignment: int | None
    record: AccuracyRecord | None
    gold: GoldView


def iteration_list(*, project_id: int) -> QuerySet[Iteration]:
    return (
        Iteration.objects.filter(project_id=project_id)
        .select_related(
            "pre_align_job",
            "parameter_set",
            "promoted_parameter_set",
            "tuning_run__job",
            "tuning_run__best",
        )
        .annotate(document_count=Count("documents", distinct=True))
        .order_by("number")
        .prefetch_related(
            Prefetch(
                "records", queryset=AccuracyRecord.objects.only("iteration_id", *RECORD_METRICS)
            )
        )
    )


def iteration_get(*, project_id: int, iteration_id: int) -> Iteration:
    iteration = iteration_list(project_id=project_id).filter(pk=iteration_id).first()
    if iteration is None:
        raise NotFound(f"Project {project_id} has no iteration {iteration_id}.")
    return iteration


def accuracy_summary(
    iteration: Iteration, *, annotator: User | None = None
) -> dict[str, dict[str, float | int | None]]:
    """Per metric, the distribution over the iteration's documents (empty until it closes);
    for an `annotator`, over their own records only."""
    records = list(iteration.records.all())
    if annotator is not None:
        records = [record for record in records if record.annotator_id == annotator.pk]
    return {
        metric: summarise([getattr(record, metric) for record in records])
        for metric in RECORD_METRICS
    }


def iteration_documents(*, iteration: Iteration, annotator: User | None = None) -> list[BatchItem]:
    """The batch as the lead inspects it: each document's assignees and their annotations,
    the pre-alignment under the iteration's parameters and, once closed, its record.

    An `annotator` (a member who is not a lead) sees only the documents assigned to them, and
    on each only their own annotation and record: another's names, effort and accuracy are
    the lead's business (the effort dashboard is lead-only for the same reason)."""
    documents = Document.objects.filter(iteration=iteration)
    if annotator is not None:
        documents = documents.filter(assignees=annotator)
    documents = (
        documents
        .defer("segments_json", "turns_json")
        .prefetch_related(
            "assignees",
            Prefetch(
                "annotations",
                queryset=Annotation.objects.only(
                    "document_id", "annotator_id", "version", "seconds_spent", "submitted_at",
                    "changed", "pre_alignment_id", "assignments",
                ),
            ),
        )
    )  # fmt: skip
    records = {
        record.document_id: record
        for record in AccuracyRecord.objects.filter(iteration=iteration).defer(
            "pre_alignment_labels", "gold_labels"
        )
    }
    pre_alignments = dict(
        PreAlignment.objects.filter(
            document__iteration=iteration, parameter_set_id=iteration.parameter_set_id
        ).values_list("document_id", "pk")
    )
    golds = gold_by_document(document_ids=[document.pk for document in documents])
    batch: list[BatchItem] = [
        {
            "document": document,
            "annotations": list(document.annotations.all()),
            "pre_alignment": pre_alignments.get(document.pk),
            "record": records.get(document.pk),
            "gold": _gold_state(document, golds.get(document.pk)),
        }
        for document in documents
    ]
    if annotator is not None:
        for item in batch:
            item["annotations"] = [a for a in item["annotations"] if a.annotator_id == annotator.pk]
            if item["record"] is not None and item["record"].annotator_id != annotator.pk:
                item["record"] = None
    return batch


def _gold_state(document: Document, gold: Gold | None) -> GoldView:
    """The stored gold, or why there is none, from the rows already fetched."""
    if gold is not None:
        return {"state": GoldState.GOLD, "rule": gold.rule}
    return {"state": undecided_gold_state(document), "rule": None}


def iteration_record(*, iteration: Iteration, document_id: int) -> AccuracyRecord:
    record = (
        AccuracyRecord.objects.filter(iteration=iteration, document_id=document_id)
        .select_related("document")
        .first()
    )
    if record is None:
        raise NotFound(
            f"Iteration {iteration.number} has no record of document {document_id} "
            "(records are written when an iteration closes)."
        )
    return record


def promotable_candidate(
    *, iteration: Iteration, candidate_id: int | None
) -> TuningCandidate | None:
    if candidate_id is None:
        return None
    candidate = TuningCandidate.objects.filter(
        pk=candidate_id, run_id=iteration.tuning_run_id
    ).first()
    if candidate is None:
        raise InvalidInput(
            f"Iteration {iteration.number}'s tuning run has no candidate {candidate_id}.",
            field="candidate",
        )
    return candidate


def promotable_parameter_set(
    *, project_id: int, parameter_set_id: int | None
) -> ParameterSet | None:
    if parameter_set_id is None:
        return None
    return parameter_set_named(project_id=project_id, parameter_set_id=parameter_set_id)
