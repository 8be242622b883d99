"""Writes on alignments: recording the engine's proposals and annotators' corrections."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from backend.alignments.models import Annotation, ParameterSet, PreAlignment
from backend.alignments.selectors import (
    annotation_state,
    current_pre_alignment,
    latest_submissions,
)
from backend.audit.services import record_event
from backend.core.errors import Conflict, InvalidInput
from backend.documents.models import Document
from backend.documents.selectors import document_meeting
from backend.jobs.models import Job
from backend.jobs.services import (
    job_begin,
    job_create,
    job_fail,
    job_lock_if_running,
    job_report_progress,
    job_submit,
    job_succeed,
)
from backend.vectors.services import vectors_for, vectors_load
from backend.version import VERSION
from workers.align.model import UNALIGNED
from workers.align.params import AlignmentParams
from workers.align.pipeline import align_meeting

Action = Literal["assign", "unalign", "reset"]
MAX_SECONDS_PER_WRITE = 24 * 3600
PRE_ALIGN_TASK = "workers.tasks.alignment.pre_align"
DIAGONAL_PARAMETER_SET = "diagonal baseline"
ENGINE_VERSION = f"tandem {VERSION}"
ALIGNABLE = [
    Document.Status.IMPORTED,
    Document.Status.PRE_ALIGNED,
    Document.Status.IN_ANNOTATION,
    Document.Status.SUBMITTED,
]


@dataclass(frozen=True)
class AssignmentOperation:
    """Applies to the inclusive run `first_turn..last_turn`; `segment` only for `assign`."""

    action: Action
    first_turn: int
    last_turn: int
    segment: int | None = None


@transaction.atomic
def parameter_set_get_or_create(
    *, project, name: str, params: dict[str, Any], engine_version: str, actor=None
) -> ParameterSet:
    parameter_set, _ = ParameterSet.objects.get_or_create(
        project=project,
        name=name,
        defaults={"params": params, "engine_version": engine_version, "created_by": actor},
    )
    return parameter_set


@transaction.atomic
def pre_alignment_record(
    *,
    document: Document,
    parameter_set: ParameterSet | None,
    labels: Sequence[int],
    confidences: Sequence[float] = (),
    params: dict[str, Any] | None = None,
    engine_version: str = "",
) -> PreAlignment:
    """Store (or replace) the proposal for this document and parameter set. `confidences`
    may be empty when the source gives none (e.g. the corpus's own initial alignment)."""
    labels = [int(label) for label in labels]
    _check_labels(labels, document, what="labels")
    if confidences and len(confidences) != document.turn_count:
        raise InvalidInput(
            f"{len(confidences)} confidences for {document.turn_count} turns.", field="confidences"
        )
    pre_alignment, _ = PreAlignment.objects.update_or_create(
        document=document,
        parameter_set=parameter_set,
        defaults={
            "labels": labels,
            "confidences": [float(value) for value in confidences],
            "params": params if params is not None else _params_of(parameter_set),
            "engine_version": engine_version,
            "computed_at": timezone.now(),
        },
    )
    Document.objects.filter(pk=document.pk, status=Document.Status.IMPORTED).update(
        status=Document.Status.PRE_ALIGNED
    )
    return pre_alignment


def diagonal_parameter_set(project) -> ParameterSet:
    """The paper's first-iteration aligner: no gold to tune on yet and no vectors needed."""
    return parameter_set_get_or_create(
        project=project,
        name=DIAGONAL_PARAMETER_SET,
        params=AlignmentParams(aligner="diagonal").to_dict(),
        engine_version=ENGINE_VERSION,
    )


def alignment_params(parameter_set: ParameterSet) -> AlignmentParams:
    try:
        return AlignmentParams.from_dict(parameter_set.params)
    except (TypeError, ValueError) as error:
        raise InvalidInput(
            f"Parameter set {parameter_set.name!r} is not an aligner configuration: {error}",
            field="parameter_set",
        ) from error


def pre_align_start(*, actor, project, documents, parameter_set: ParameterSet) -> Job:
    """Queue the pre-alignment of `documents` with `parameter_set` on the cpu queue."""
    documents = list(documents)
    if parameter_set.project_id != project.pk:
        raise InvalidInput(
            f"Project {project.pk} has no parameter set {parameter_set.pk}.", field="parameter_set"
        )
    alignment_params(parameter_set)
    if not documents:
        raise InvalidInput("There is no document to pre-align.", field="documents")
    foreign = sorted(document.pk for document in documents if document.project_id != project.pk)
    if foreign:
        raise InvalidInput(f"Project {project.pk} has no documents {foreign}.", field="documents")
    unready = sorted(document.pk for document in documents if document.status not in ALIGNABLE)
    if unready:
        raise InvalidInput(
            f"Documents {unready} are not imported yet (or failed to import).", field="documents"
        )
    with transaction.atomic():
        job = job_create(
            kind=Job.Kind.PRE_ALIGN,
            project=project,
            document=documents[0] if len(documents) == 1 else None,
            created_by=actor,
            arguments={
                "parameter_set": parameter_set.pk,
                "documents": [document.pk for document in documents],
            },
        )
        record_event(
            actor=actor,
            action="pre_alignment.start",
            target=job,
            project=project,
            parameter_set=parameter_set.pk,
            documents=len(documents),
        )
    return job_submit(job=job, task_name=PRE_ALIGN_TASK)


def pre_align_run(*, job_id: int, task_id: str | None = None) -> None:
    """The pre-alignment job's body. Each document is aligned outside any transaction and
    stored in one, so a document is never half pre-aligned; a cancel stops the job between
    documents. A redelivered job resumes: documents it already stored are not redone."""
    job = job_begin(job_id=job_id, task_id=task_id)
    if job is None:
        return
    parameter_set = ParameterSet.objects.filter(pk=job.arguments["parameter_set"]).first()
    if parameter_set is None:
        job_fail(job_id=job_id, error="The parameter set was deleted before the job ran.")
        return
    try:
        params = alignment_params(parameter_set)
    except InvalidInput as error:
        job_fail(job_id=job_id, error=error.message)
        return
    vectors = None
    if params.aligner != "diagonal" and params.scoring.method == "embedding":
        job_report_progress(job_id=job_id, progress=0.0, message="loading word vectors")
        vectors = vectors_load(
            vectors_id=vectors_for(project_id=job.project_id, settings=params.vectors).pk
        )
    document_ids = job.arguments["documents"]
    done, resumed = [], []
    for position, document_id in enumerate(document_ids):
        document = Document.objects.filter(pk=document_id).first()
        if document is None:
            continue
        stored = PreAlignment.objects.filter(
            document=document, parameter_set=parameter_set, computed_at__gte=job.started_at
        ).first()
        if stored is None:
            result = align_meeting(document_meeting(document), params, vectors)
            with transaction.atomic():
                if job_lock_if_running(job_id=job_id) is None:
                    return
                stored = pre_alignment_record(
                    document=document,
                    parameter_set=parameter_set,
                    labels=result.labels.tolist(),
                    confidences=result.confidence.tolist(),
                    params=params.to_dict(),
                    engine_version=ENGINE_VERSION,
                )
        else:
            resumed.append(document_id)
        done.append(stored.pk)
        job_report_progress(
            job_id=job_id,
            progress=(position + 1) / len(document_ids),
            message=f"{position + 1} of {len(document_ids)} documents pre-aligned",
        )
    with transaction.atomic():
        if job_lock_if_running(job_id=job_id) is None:
            return
        job_succeed(
            job=job,
            result={"pre_alignments": done, "resumed": resumed, "parameter_set": parameter_set.pk},
            message=f"{len(done)} documents pre-aligned",
        )


@transaction.atomic
def annotation_apply(
    *,
    annotator,
    document: Document,
    version: int,
    operations: Sequence[AssignmentOperation],
    seconds_spent: int = 0,
) -> Annotation:
    """Apply a batch of edits made on `version`; 409 with the current state when another
    write came first, 400 naming the problem when the result breaks the report's order."""
    annotation, baseline = _editable(annotator, document, version)
    assignments = list(annotation.assignments if annotation else baseline)
    for index, operation in enumerate(operations):
        _apply(operation, assignments, baseline, document, index)
    check_order(assignments)
    annotation = _save(
        annotator, document, annotation, version, assignments, baseline, seconds_spent
    )
    record_event(
        actor=annotator,
        action="annotation.update",
        target=annotation,
        project=document.project,
        version=annotation.version,
        operations=len(operations),
    )
    return annotation


@transaction.atomic
def annotation_submit(
    *, annotator, document: Document, version: int, seconds_spent: int = 0
) -> Annotation:
    """Close the annotation; `seconds_spent` is the time since the last save, which no
    edit carried to the server."""
    annotation, baseline = _editable(annotator, document, version)
    if annotation is None:
        annotation = _save(annotator, document, None, version, baseline, baseline, 0)
    updated = Annotation.objects.filter(pk=annotation.pk, version=annotation.version).update(
        submitted_at=timezone.now(),
        version=F("version") + 1,
        updated_at=timezone.now(),
        seconds_spent=F("seconds_spent") + max(0, min(int(seconds_spent), MAX_SECONDS_PER_WRITE)),
    )
    if not updated:
        _stale(annotator, document)
    Document.objects.filter(pk=document.pk).update(status=Document.Status.SUBMITTED)
    annotation.refresh_from_db()
    record_event(
        actor=annotator,
        action="annotation.submit",
        target=annotation,
        project=document.project,
        version=annotation.version,
    )
    return annotation


@transaction.atomic
def annotation_reopen(*, annotator, document: Document, version: int) -> Annotation:
    """Take one's submission back to correct it further, until the document's iteration is
    closed: closing freezes the gold into the iteration's records and its tuning run."""
    annotation = (
        Annotation.objects.select_for_update()
        .filter(document=document, annotator=annotator)
        .first()
    )
    if annotation is None or annotation.submitted_at is None:
        raise Conflict("This annotation is not submitted; there is nothing to reopen.")
    if annotation.version != version:
        _stale(annotator, document, sent=version)
    iteration = document.iteration
    if iteration is not None and iteration.closed_at is not None:
        raise Conflict(
            f"Iteration {iteration.number} is closed: its gold is recorded and tuned on, so "
            "this submission can no longer be reopened."
        )
    annotation.submitted_at = None
    annotation.version += 1
    annotation.save(update_fields=["submitted_at", "version", "updated_at"])
    if not latest_submissions(document_id=document.pk).exists():
        Document.objects.filter(pk=document.pk).update(status=Document.Status.IN_ANNOTATION)
    record_event(
        actor=annotator,
        action="annotation.reopen",
        target=annotation,
        project=document.project,
        version=annotation.version,
    )
    return annotation


def check_order(assignments: Sequence[int]) -> None:
    """Aligned turns must follow the report: their segments never go backwards."""
    last_segment, last_turn = UNALIGNED, None
    for turn, segment in enumerate(assignments):
        if segment == UNALIGNED:
            continue
        if segment < last_segment:
            raise InvalidInput(
                f"Turn {turn} would be assigned to segment {segment}, which comes before "
                f"segment {last_segment} of turn {last_turn}: assignments must keep the "
                "report's order.",
                turn=turn,
            )
        last_segment, last_turn = segment, turn


def _editable(annotator, document: Document, version: int):
    """The caller's annotation (None before their first write) and the pre-alignment
    labels it is compared with; refuses stale versions and submitted annotations."""
    annotation = Annotation.objects.filter(document=document, annotator=annotator).first()
    current_version = annotation.version if annotation else 0
    if version != current_version:
        _stale(annotator, document, sent=version)
    if annotation and annotation.submitted_at:
        raise Conflict(
            "This annotation is submitted and can no longer be changed.",
            current=annotation_state(document=document, annotator=annotator),
        )
    if annotation and annotation.pre_alignment_id:
        baseline = annotation.pre_alignment.labels
    elif annotation:
        baseline = [UNALIGNED] * document.turn_count
    else:
        pre_alignment = current_pre_alignment(document=document)
        baseline = pre_alignment.labels if pre_alignment else [UNALIGNED] * document.turn_count
    return annotation, baseline


def _apply(
    operation: AssignmentOperation,
    assignments: list[int],
    baseline: Sequence[int],
    document: Document,
    index: int,
) -> None:
    where = f"operations[{index}]"
    last = document.turn_count - 1
    if not 0 <= operation.first_turn <= operation.last_turn <= last:
        raise InvalidInput(
            f"{where}: turns {operation.first_turn}..{operation.last_turn} are not a run of "
            f"this document's turns 0..{last}.",
            operation=index,
        )
    run = range(operation.first_turn, operation.last_turn + 1)
    if operation.action == "assign":
        segment = operation.segment
        if segment is None or not 0 <= segment < document.segment_count:
            raise InvalidInput(
                f"{where}: segment {segment} is not one of this document's segments "
                f"0..{document.segment_count - 1}.",
                operation=index,
            )
        for turn in run:
            assignments[turn] = segment
    elif operation.action == "unalign":
        for turn in run:
            assignments[turn] = UNALIGNED
    elif operation.action == "reset":
        for turn in run:
            assignments[turn] = baseline[turn]
    else:
        raise InvalidInput(f"{where}: unknown action {operation.action!r}.", operation=index)


def _save(annotator, document, annotation, version, assignments, baseline, seconds_spent):
    changed = [now != before for now, before in zip(assignments, baseline, strict=True)]
    seconds = max(0, min(int(seconds_spent), MAX_SECONDS_PER_WRITE))
    if annotation is None:
        try:
            with transaction.atomic():
                annotation = Annotation.objects.create(
                    document=document,
                    annotator=annotator,
                    pre_alignment=current_pre_alignment(document=document),
                    assignments=assignments,
                    changed=changed,
                    seconds_spent=seconds,
                    version=1,
                )
        except IntegrityError:
            _stale(annotator, document, sent=version)
    else:
        updated = Annotation.objects.filter(pk=annotation.pk, version=version).update(
            assignments=assignments,
            changed=changed,
            seconds_spent=F("seconds_spent") + seconds,
            version=version + 1,
            updated_at=timezone.now(),
        )
        if not updated:
            _stale(annotator, document, sent=version)
        annotation.refresh_from_db()
    Document.objects.filter(
        pk=document.pk, status__in=[Document.Status.IMPORTED, Document.Status.PRE_ALIGNED]
    ).update(status=Document.Status.IN_ANNOTATION)
    return annotation


def _stale(annotator, document: Document, sent: int | None = None):
    current = annotation_state(document=document, annotator=annotator)
    raise Conflict(
        f"Your copy (version {sent}) is stale: the annotation is at version "
        f"{current['version']}. Reload it, reapply your change, and send again.",
        current=current,
    )


def _check_labels(labels: Sequence[int], document: Document, *, what: str) -> None:
    if len(labels) != document.turn_count:
        raise InvalidInput(f"{len(labels)} {what} for {document.turn_count} turns.", field=what)
    for turn, label in enumerate(labels):
        if label != UNALIGNED and not 0 <= label < document.segment_count:
            raise InvalidInput(
                f"Turn {turn}: segment {label} is out of range 0..{document.segment_count - 1}.",
                field=what,
                turn=turn,
            )


def _params_of(parameter_set: ParameterSet | None) -> dict[str, Any]:
    return dict(parameter_set.params) if parameter_set else {}
