from django.db.models import Count, Prefetch, QuerySet

from backend.alignments.models import Annotation, ParameterSet, PreAlignment
from backend.core.errors import InvalidInput, NotFound
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


def accuracy_summary(iteration: Iteration) -> dict[str, dict]:
    """Per metric, the distribution over the iteration's documents (empty until it closes)."""
    records = list(iteration.records.all())
    return {
        metric: summarise([getattr(record, metric) for record in records])
        for metric in RECORD_METRICS
    }


def iteration_documents(*, iteration: Iteration) -> list[dict]:
    """The batch as the lead inspects it: each document's assignees and their annotations,
    the pre-alignment under the iteration's parameters and, once closed, its record."""
    documents = (
        Document.objects.filter(iteration=iteration)
        .defer("segments_json", "turns_json")
        .prefetch_related(
            "assignees",
            Prefetch(
                "annotations",
                queryset=Annotation.objects.only(
                    "document_id", "annotator_id", "version", "seconds_spent", "submitted_at",
                    "changed", "pre_alignment_id",
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
    return [
        {
            "document": document,
            "annotations": list(document.annotations.all()),
            "pre_alignment": pre_alignments.get(document.pk),
            "record": records.get(document.pk),
        }
        for document in documents
    ]


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


def batch_documents(*, project_id: int, document_ids: list[int]) -> list[Document]:
    """The batch in the order given, duplicates dropped; 400 naming ids that are not here."""
    found = {d.pk: d for d in Document.objects.filter(project_id=project_id, pk__in=document_ids)}
    missing = sorted(set(document_ids) - set(found))
    if missing:
        raise InvalidInput(f"Project {project_id} has no documents {missing}.", field="documents")
    return [found[pk] for pk in dict.fromkeys(document_ids)]


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
    parameter_set = ParameterSet.objects.filter(pk=parameter_set_id, project_id=project_id).first()
    if parameter_set is None:
        raise InvalidInput(
            f"Project {project_id} has no parameter set {parameter_set_id}.", field="parameter_set"
        )
    return parameter_set
