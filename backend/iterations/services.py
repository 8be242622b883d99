"""The bootstrap loop's writes: open an iteration on a batch, close it into accuracy records
and a tuning run on all gold so far, promote what tuning proposes (or anything else).

Opening and closing each start a background job after their own transaction commits (a
worker must find the rows the job names). When the broker cannot take the job, the service
undoes what it wrote and the caller gets the 503: an iteration is never left open without
its pre-alignment, nor closed without its tuning run.
"""

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from backend.alignments.models import ParameterSet
from backend.alignments.services import diagonal_parameter_set, pre_align_start
from backend.audit.services import record_event
from backend.core.errors import Conflict, InvalidInput, ServiceUnavailable
from backend.documents.models import Document
from backend.documents.services import document_update
from backend.iterations.gold import corpus_counts, gold_documents
from backend.iterations.models import Iteration, IterationStatus
from backend.iterations.records import accuracy_record_write, gold_annotation
from backend.jobs.models import Job
from backend.projects.models import Project
from backend.tuning.models import TuningCandidate
from backend.tuning.services import tuning_candidate_parameter_set, tuning_start

READY_FOR_BATCH = (
    Document.Status.IMPORTED,
    Document.Status.PRE_ALIGNED,
    Document.Status.IN_ANNOTATION,
    Document.Status.SUBMITTED,
)


def iteration_open(
    *,
    actor,
    project: Project,
    documents: Sequence[Document],
    assignments: Mapping[int, Sequence[int]] | None = None,
    name: str = "",
) -> Iteration:
    """Number the next iteration, put the batch in it, assign annotators (`assignments`:
    document id -> user ids; other documents keep theirs) and queue the batch's pre-alignment
    with the promoted parameter set, or the diagonal while none is promoted (the paper's
    first iteration)."""
    assignments = assignments or {}
    with transaction.atomic():
        Project.objects.select_for_update().filter(pk=project.pk).first()
        _check_batch(project, documents, assignments)
        project.refresh_from_db(fields=["promoted_parameter_set"])
        parameter_set = project.promoted_parameter_set or diagonal_parameter_set(project)
        last = Iteration.objects.filter(project=project).aggregate(last=Max("number"))["last"]
        iteration = Iteration.objects.create(
            project=project,
            number=(last or 0) + 1,
            name=name,
            parameter_set=parameter_set,
            parameters={"name": parameter_set.name, "params": parameter_set.params},
            created_by=actor,
        )
        previous_assignees = {
            d.pk: list(d.assignees.values_list("pk", flat=True)) for d in documents
        }
        for document in documents:
            document_update(
                actor=actor,
                document=document,
                iteration_id=iteration.pk,
                assignee_ids=assignments.get(document.pk),
            )
        record_event(
            actor=actor,
            action="iteration.open",
            target=iteration,
            project=project,
            number=iteration.number,
            documents=[document.pk for document in documents],
            parameter_set=parameter_set.pk,
        )
    try:
        _start_pre_alignment(actor, iteration, list(documents))
    except ServiceUnavailable:
        _undo_open(actor, iteration, previous_assignees)
        raise
    return iteration


def iteration_pre_align_again(*, actor, iteration: Iteration) -> Iteration:
    """A failed or cancelled pre-alignment is started again; a queued, running or successful
    one is left alone, since a second job would only race with it."""
    if iteration.closed_at is not None:
        raise Conflict(f"Iteration {iteration.number} is closed; its pre-alignments are final.")
    job = iteration.pre_align_job
    if job is not None and job.status not in (Job.Status.FAILED, Job.Status.CANCELLED):
        raise Conflict(
            f"Iteration {iteration.number}'s pre-alignment (job {job.pk}) is {job.status}; "
            "only a failed or cancelled one is started again."
        )
    if iteration.parameter_set is None:
        raise Conflict(
            f"Iteration {iteration.number}'s parameter set was deleted; open a new iteration."
        )
    documents = list(iteration.documents.all())
    if not documents:
        raise Conflict(f"Iteration {iteration.number} has no documents left to pre-align.")
    _start_pre_alignment(actor, iteration, documents)
    return iteration


def iteration_close(
    *, actor, iteration: Iteration, tune: bool = True, grid: dict[str, list[Any]] | None = None
) -> Iteration:
    """Freeze the corrections into accuracy records, then tune on all gold so far (this
    iteration's included) over `grid` (the engine's default grid when None). Refused, with
    nothing written, while a document has no submitted annotation: the lead waits for it or
    moves it out of the iteration."""
    with transaction.atomic():
        iteration = (
            Iteration.objects.select_for_update(of=("self",))
            .select_related("pre_align_job", "tuning_run__job", "project")
            .get(pk=iteration.pk)
        )
        _check_closable(iteration)
        for document in iteration.documents.order_by("pk"):
            accuracy_record_write(
                iteration=iteration, document=document, annotation=gold_annotation(document)
            )
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
            tune=tune,
        )
    if tune:
        try:
            _start_tuning(actor, iteration, grid)
        except (ServiceUnavailable, InvalidInput):
            _undo_close(actor, iteration)
            raise
    return iteration


def iteration_tune_again(
    *, actor, iteration: Iteration, grid: dict[str, list[Any]] | None = None
) -> Iteration:
    """A closed iteration whose tuning failed, was cancelled or never ran tunes again."""
    if iteration.closed_at is None:
        raise Conflict(f"Iteration {iteration.number} is not closed; close it to tune.")
    run = iteration.tuning_run
    if run is not None and run.job.status not in (Job.Status.FAILED, Job.Status.CANCELLED):
        raise Conflict(
            f"Iteration {iteration.number}'s tuning run {run.pk} is {run.job.status}; only a "
            "failed or cancelled one is started again."
        )
    _start_tuning(actor, iteration, grid)
    return iteration


def iteration_promote(
    *,
    actor,
    iteration: Iteration,
    candidate: TuningCandidate | None = None,
    parameter_set: ParameterSet | None = None,
) -> ParameterSet:
    """Promote a candidate of the iteration's tuning run (its best, the proposal, unless one
    is named) or any parameter set of the project. A candidate is refused while its run is
    unfinished: its scores cover only the documents evaluated so far."""
    if parameter_set is not None:
        parameter_set_promote(
            actor=actor, project=iteration.project, parameter_set=parameter_set, iteration=iteration
        )
        return parameter_set
    run = iteration.tuning_run
    if run is None:
        raise Conflict(
            f"Iteration {iteration.number} has no tuning run (it is {iteration.status}); "
            "name a parameter set to promote instead."
        )
    job = run.job
    if job.status != Job.Status.SUCCEEDED:
        state = (
            f"still {job.status} ({round(100 * job.progress)} %)"
            if job.status not in Job.FINISHED
            else f"{job.status}{': ' + job.error if job.error else ''}"
        )
        raise Conflict(
            f"Tuning run {run.pk} of iteration {iteration.number} is {state}; only a finished "
            "run's candidates can be promoted, since until then their scores are partial.",
            tuning_status=job.status,
        )
    candidate = candidate or run.best
    if candidate is None or candidate.run_id != run.pk:
        raise InvalidInput(
            f"Candidate {candidate.pk if candidate else None} is not one of tuning run {run.pk}'s.",
            field="candidate",
        )
    with transaction.atomic():
        parameter_set = tuning_candidate_parameter_set(actor=actor, candidate=candidate)
        parameter_set_promote(
            actor=actor, project=iteration.project, parameter_set=parameter_set, iteration=iteration
        )
    return parameter_set


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


def _start_pre_alignment(actor, iteration: Iteration, documents: list[Document]) -> None:
    job = pre_align_start(
        actor=actor,
        project=iteration.project,
        documents=documents,
        parameter_set=iteration.parameter_set,
    )
    Iteration.objects.filter(pk=iteration.pk).update(pre_align_job=job)
    iteration.pre_align_job = job


def _start_tuning(actor, iteration: Iteration, grid) -> None:
    run = tuning_start(
        actor=actor,
        project=iteration.project,
        gold_documents=gold_documents(project_id=iteration.project_id),
        grid=grid,
    )
    Iteration.objects.filter(pk=iteration.pk).update(tuning_run=run)
    iteration.tuning_run = run


@transaction.atomic
def _undo_open(actor, iteration: Iteration, previous_assignees: dict[int, list[int]]) -> None:
    for document in Document.objects.filter(pk__in=previous_assignees):
        document.assignees.set(previous_assignees[document.pk])
    record_event(
        actor=actor,
        action="iteration.open_undone",
        target=iteration,
        project=iteration.project,
        number=iteration.number,
        reason="the pre-alignment job could not be queued",
    )
    iteration.delete()


@transaction.atomic
def _undo_close(actor, iteration: Iteration) -> None:
    iteration.records.all().delete()
    Iteration.objects.filter(pk=iteration.pk).update(
        closed_at=None, closed_by=None, corpus_at_close={}
    )
    iteration.closed_at, iteration.closed_by, iteration.corpus_at_close = None, None, {}
    record_event(
        actor=actor,
        action="iteration.close_undone",
        target=iteration,
        project=iteration.project,
        number=iteration.number,
        reason="the tuning run could not be started",
    )


def _check_batch(project: Project, documents: Sequence[Document], assignments) -> None:
    if not documents:
        raise InvalidInput("An iteration needs at least one document.", field="documents")
    busy = (
        Iteration.objects.filter(project=project, closed_at__isnull=True)
        .values_list("number", flat=True)
        .first()
    )
    if busy is not None:
        raise Conflict(
            f"Iteration {busy} is still open; close it before opening the next one, so that "
            "each iteration is pre-aligned with what the previous ones taught."
        )
    foreign = [document.pk for document in documents if document.project_id != project.pk]
    if foreign:
        raise InvalidInput(f"Documents {foreign} are not in this project.", field="documents")
    unready = [d.name for d in documents if d.status not in READY_FOR_BATCH]
    if unready:
        raise InvalidInput(
            f"Documents {unready} are not imported (still importing, or the import failed).",
            field="documents",
        )
    taken = [d.name for d in documents if d.iteration_id is not None]
    if taken:
        raise InvalidInput(
            f"Documents {taken} already belong to an iteration; a document is corrected once.",
            field="documents",
        )
    strangers = sorted(set(assignments) - {document.pk for document in documents})
    if strangers:
        raise InvalidInput(
            f"Assignments name documents {strangers} that are not in the batch.",
            field="assignments",
        )


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
    waiting = [document for document in documents if gold_annotation(document) is None]
    if waiting:
        raise Conflict(
            f"Documents {[document.name for document in waiting]} have no submitted annotation "
            "yet; wait for their annotators or move them out of the iteration before closing.",
            unsubmitted=[document.pk for document in waiting],
        )
