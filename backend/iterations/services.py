"""The bootstrap loop's writes: open an iteration on a batch, close it into accuracy records
and a tuning run on all gold so far, promote what tuning proposes (or anything else)."""

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from backend.alignments.models import Annotation, ParameterSet
from backend.audit.services import record_event
from backend.core.errors import Conflict, InvalidInput
from backend.documents.models import Document, TranscriptTurn
from backend.iterations.accuracy import score_correction
from backend.iterations.gold import corpus_counts
from backend.iterations.models import AccuracyRecord, Iteration, IterationStatus
from backend.projects.models import Project
from workers.align.model import UNALIGNED


@transaction.atomic
def iteration_create(*, actor, project: Project, name: str = "") -> Iteration:
    Project.objects.select_for_update().filter(pk=project.pk).first()
    last = Iteration.objects.filter(project=project).aggregate(last=Max("number"))["last"] or 0
    iteration = Iteration.objects.create(
        project=project, number=last + 1, name=name, created_by=actor
    )
    record_event(
        actor=actor,
        action="iteration.create",
        target=iteration,
        project=project,
        number=iteration.number,
    )
    return iteration


def iteration_close(*, actor, iteration: Iteration, tune: bool = True) -> Iteration:
    """Freeze the corrections into accuracy records, then tune on all gold so far (this
    iteration's included). Refused, with nothing written, while a document has no submitted
    annotation: the lead waits for it or moves it out of the iteration."""
    with transaction.atomic():
        iteration = (
            Iteration.objects.select_for_update()
            .select_related("pre_align_job")
            .get(pk=iteration.pk)
        )
        _check_closable(iteration)
        for document in iteration.documents.all():
            _record(iteration, document, _gold_annotation(iteration, document))
        iteration.closed_at = timezone.now()
        iteration.closed_by = actor
        iteration.save(update_fields=["closed_at", "closed_by"])
        iteration.corpus_at_close = corpus_counts(project=iteration.project).as_dict()
        iteration.save(update_fields=["corpus_at_close"])
        record_event(
            actor=actor,
            action="iteration.close",
            target=iteration,
            project=iteration.project,
            number=iteration.number,
            records=iteration.records.count(),
        )
    return iteration


def _check_closable(iteration: Iteration) -> None:
    status = iteration.status
    if status == IterationStatus.OPEN:
        job = iteration.pre_align_job
        progress = (
            f"job {job.pk} is {job.status} at {round(100 * job.progress)} %"
            if job
            else "no pre-alignment job is running"
        )
        raise Conflict(
            f"Iteration {iteration.number} is not pre-aligned yet ({progress}); there is "
            "nothing to close.",
            status=status,
        )
    if status != IterationStatus.ANNOTATING:
        raise Conflict(f"Iteration {iteration.number} is already {status}.", status=status)
    documents = list(iteration.documents.order_by("name", "pk"))
    if not documents:
        raise Conflict(f"Iteration {iteration.number} has no documents left to close.")
    submitted = set(
        Annotation.objects.filter(document__in=documents, submitted_at__isnull=False).values_list(
            "document_id", flat=True
        )
    )
    waiting = [document.name for document in documents if document.pk not in submitted]
    if waiting:
        raise Conflict(
            f"Documents {waiting} have no submitted annotation yet; wait for their annotators "
            "or move them out of the iteration before closing it.",
            unsubmitted=[document.pk for document in documents if document.pk not in submitted],
        )


def _gold_annotation(iteration: Iteration, document: Document) -> Annotation:
    """The latest submission is the gold when several annotators corrected a document."""
    return (
        Annotation.objects.filter(document=document, submitted_at__isnull=False)
        .select_related("pre_alignment")
        .order_by("-submitted_at", "-pk")
        .first()
    )


def _record(iteration: Iteration, document: Document, annotation: Annotation) -> AccuracyRecord:
    """Scores the pre-alignment the annotator was shown: the one their corrections are
    measured against, and which the editor's `changed` flags refer to."""
    pre_alignment = annotation.pre_alignment
    pre_labels = list(pre_alignment.labels) if pre_alignment else [UNALIGNED] * document.turn_count
    turns = list(
        TranscriptTurn.objects.filter(document=document)
        .order_by("position")
        .values_list("key", "word_count")
    )
    scores = score_correction(
        pre_alignment=pre_labels,
        gold=annotation.assignments,
        word_counts=[count for _, count in turns],
        turn_keys=[key for key, _ in turns],
    )
    return AccuracyRecord.objects.create(
        iteration=iteration,
        document=document,
        annotator=annotation.annotator,
        annotation=annotation,
        pre_alignment=pre_alignment,
        pre_alignment_labels=pre_labels,
        gold_labels=list(annotation.assignments),
        turns=scores.turns,
        words=scores.words,
        unchanged_turns=scores.unchanged_turns,
        unchanged_words=scores.unchanged_words,
        human_turn_accuracy=scores.human_turn_accuracy,
        human_word_accuracy=scores.human_word_accuracy,
        segment_accuracy=scores.segment_accuracy,
        word_accuracy=scores.word_accuracy,
        windowdiff=scores.windowdiff,
        seconds_spent=annotation.seconds_spent,
    )


@transaction.atomic
def parameter_set_promote(
    *, actor, project: Project, parameter_set: ParameterSet, iteration: Iteration | None = None
) -> Project:
    """From now on, new pre-alignments in the project use `parameter_set`."""
    if parameter_set.project_id != project.pk:
        raise InvalidInput(
            f"Parameter set {parameter_set.pk} belongs to another project.", field="parameter_set"
        )
    Project.objects.filter(pk=project.pk).update(
        promoted_parameter_set=parameter_set, updated_at=timezone.now()
    )
    project.promoted_parameter_set = parameter_set
    if iteration is not None:
        Iteration.objects.filter(pk=iteration.pk).update(promoted_parameter_set=parameter_set)
        iteration.promoted_parameter_set = parameter_set
    record_event(
        actor=actor,
        action="parameter_set.promote",
        target=parameter_set,
        project=project,
        iteration=iteration.number if iteration else None,
        name=parameter_set.name,
    )
    return project
