"""The bootstrap loop's writes: open an iteration on a batch, add documents to it or cancel it
while it is open, close it into accuracy records and a tuning run on all gold so far, promote
what tuning proposes (or anything else).

Opening and closing each start a background job after their own transaction commits (a
worker must find the rows the job names). When the broker cannot take the job, the service
undoes what it wrote and the caller gets the 503: an iteration is never left open without
its pre-alignment, nor closed without its tuning run.
"""

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from backend.alignments.models import ParameterSet, PreAlignment
from backend.alignments.services.pre_alignments import (
    diagonal_parameter_set,
    pre_align_start,
    shipped_parameter_set,
)
from backend.audit.services import record_event
from backend.core.errors import Conflict, InvalidInput, ServiceUnavailable
from backend.curation.models import GoldState
from backend.curation.selectors import gold_by_document
from backend.curation.services import gold_refresh
from backend.documents.models import Document
from backend.documents.services import document_assign, document_update
from backend.iterations.double_annotation import (
    DoubleAnnotation,
    add_second_annotators,
    draw_documents,
)
from backend.iterations.gold import corpus_counts, gold_documents
from backend.iterations.models import Iteration, IterationStatus, StartingParameters
from backend.iterations.proposals import READY_FOR_BATCH
from backend.iterations.records import accuracy_record_write
from backend.jobs.models import Job
from backend.jobs.services import job_cancel
from backend.projects.models import Membership, Project, Role
from backend.projects.services import parameter_set_promote
from backend.tuning.models import TuningCandidate
from backend.tuning.selectors import parameters_in_use
from backend.tuning.services import tuning_candidate_parameter_set, tuning_start
from workers.align.setting_fields import in_words


def iteration_open(
    *,
    actor: User,
    project: Project,
    documents: Sequence[Document],
    assignments: Mapping[int, Sequence[int]] | None = None,
    double: DoubleAnnotation | None = None,
    name: str = "",
    starting: str = StartingParameters.SHIPPED,
) -> Iteration:
    """Number the next iteration, put the batch in it, assign annotators (`assignments`:
    document id -> user ids; other documents keep theirs), give the documents `double` draws
    a second annotator, and queue the batch's pre-alignment with the parameters in use
    (tuning.selectors.parameters_in_use); before any, with `starting`: the shipped
    defaults, or the diagonal as in the paper's first iteration."""
    assignments = assignments or {}
    with transaction.atomic():
        Project.objects.select_for_update().filter(pk=project.pk).first()
        _check_batch(project, documents, assignments)
        assignees, drawn = _assignees_with_doubles(project, documents, assignments, double)
        project.refresh_from_db(fields=["promoted_parameter_set"])
        parameter_set = parameters_in_use(project=project) or (
            shipped_parameter_set(project)
            if starting == StartingParameters.SHIPPED
            else diagonal_parameter_set(project)
        )
        last = Iteration.objects.filter(project=project).aggregate(last=Max("number"))["last"]
        iteration = Iteration.objects.create(
            project=project,
            number=(last or 0) + 1,
            name=name,
            parameter_set=parameter_set,
            parameters={"name": parameter_set.name, "params": parameter_set.params},
            double_annotation=drawn,
            created_by=actor,
        )
        previous_assignees = _put_in_iteration(actor, iteration, documents, assignees)
        record_event(
            actor=actor,
            action="iteration.open",
            target=iteration,
            project=project,
            number=iteration.number,
            documents=[document.pk for document in documents],
            parameter_set=parameter_set.pk,
            double_annotation=drawn,
        )
    try:
        _start_pre_alignment(actor, iteration, list(documents), parameter_set)
    except ServiceUnavailable:
        _undo_open(actor, iteration, previous_assignees)
        raise
    return iteration


def iteration_pre_align_again(*, actor: User, iteration: Iteration) -> Iteration:
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
    parameter_set = iteration.parameter_set
    if parameter_set is None:
        raise Conflict(
            f"Iteration {iteration.number}'s parameter set was deleted; open a new iteration."
        )
    documents = list(iteration.documents.all())
    if not documents:
        raise Conflict(f"Iteration {iteration.number} has no documents left to pre-align.")
    _start_pre_alignment(actor, iteration, documents, parameter_set)
    return iteration


def iteration_add_documents(
    *,
    actor: User,
    iteration: Iteration,
    documents: Sequence[Document],
    assignments: Mapping[int, Sequence[int]] | None = None,
) -> Iteration:
    """Put more documents in an open iteration and pre-align them with its parameter set, so
    an iteration emptied by taking documents out can be filled again. The job pre-aligns every
    document of the batch that still lacks the iteration's pre-alignment (the new ones, and
    any a failed job left out); the rest keep theirs. A document taken out and put back keeps
    the pre-alignment it had, so when every document has one no job starts."""
    assignments = assignments or {}
    with transaction.atomic():
        iteration = _locked_open(iteration, "add documents to")
        job = iteration.pre_align_job
        if job is not None and job.status not in Job.FINISHED:
            raise Conflict(
                f"Iteration {iteration.number} is still being pre-aligned (job {job.pk} is "
                f"{job.status}); add documents once it has finished."
            )
        parameter_set = iteration.parameter_set
        if parameter_set is None:
            raise Conflict(
                f"Iteration {iteration.number}'s parameter set was deleted; cancel it and open "
                "a new iteration."
            )
        _check_new_documents(iteration.project, documents, assignments)
        previous_assignees = _put_in_iteration(actor, iteration, documents, assignments)
        record_event(
            actor=actor,
            action="iteration.add_documents",
            target=iteration,
            project=iteration.project,
            number=iteration.number,
            documents=[document.pk for document in documents],
        )
        pre_aligned = PreAlignment.objects.filter(
            parameter_set=parameter_set, document__iteration=iteration
        ).values_list("document_id", flat=True)
        unaligned = list(iteration.documents.exclude(pk__in=pre_aligned).order_by("pk"))
    if not unaligned:
        return iteration
    try:
        _start_pre_alignment(actor, iteration, unaligned, parameter_set)
    except ServiceUnavailable:
        _undo_add(actor, iteration, previous_assignees, job)
        raise
    return iteration


@transaction.atomic
def iteration_cancel(*, actor: User, iteration: Iteration) -> Iteration:
    """Give up an open iteration: its pre-alignment job stops, its documents are free for the
    next batch with their pre-alignments and annotations kept, and it stays in the project's
    history under its number, marked cancelled, naming the documents it had."""
    iteration = _locked_open(iteration, "cancel")
    job = iteration.pre_align_job
    if job is not None and job.status not in Job.FINISHED:
        job_cancel(actor=actor, job=job)
    freed = list(iteration.documents.order_by("pk"))
    for document in freed:
        document_update(actor=actor, document=document, iteration_id=None)
    iteration.cancelled_at = timezone.now()
    iteration.cancelled_by = actor
    iteration.cancelled_documents = [document.pk for document in freed]
    iteration.save(update_fields=["cancelled_at", "cancelled_by", "cancelled_documents"])
    record_event(
        actor=actor,
        action="iteration.cancel",
        target=iteration,
        project=iteration.project,
        number=iteration.number,
        documents=iteration.cancelled_documents,
    )
    return iteration


def _locked_open(iteration: Iteration, doing: str) -> Iteration:
    """The iteration, locked for the caller's transaction; refused unless it is open."""
    iteration = (
        Iteration.objects.select_for_update(of=("self",))
        .select_related("pre_align_job", "parameter_set", "project")
        .get(pk=iteration.pk)
    )
    if iteration.cancelled_at is not None or iteration.closed_at is not None:
        state = "cancelled" if iteration.cancelled_at is not None else "closed"
        raise Conflict(
            f"Iteration {iteration.number} is {state}; only an open iteration can {doing}.",
            status=iteration.status,
        )
    return iteration


def iteration_close(
    *,
    actor: User,
    iteration: Iteration,
    tune: bool = True,
    grid: dict[str, list[Any]] | None = None,
) -> Iteration:
    """Freeze the gold into accuracy records, then tune on all gold so far (this iteration's
    included) over `grid` (the engine's default grid when None). Refused, with nothing
    written, while a document has no gold (backend.curation.rule): an assignee has not
    submitted, or submissions disagree and nobody adjudicated them. The lead waits, moves the
    document out of the iteration, or adjudicates."""
    with transaction.atomic():
        iteration = (
            Iteration.objects.select_for_update(of=("self",))
            .select_related("pre_align_job", "tuning_run__job", "project")
            .get(pk=iteration.pk)
        )
        _check_closable(iteration)
        golds = gold_by_document(document_ids=iteration.documents.values_list("pk", flat=True))
        for document in iteration.documents.order_by("pk"):
            accuracy_record_write(iteration=iteration, document=document, gold=golds[document.pk])
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
    *, actor: User, iteration: Iteration, grid: dict[str, list[Any]] | None = None
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
    actor: User,
    iteration: Iteration,
    candidate: TuningCandidate | None = None,
    parameter_set: ParameterSet | None = None,
) -> ParameterSet:
    """Promote a candidate of the iteration's tuning run (its best, the proposal, unless one
    is named) or any parameter set of the project. A candidate is refused while its run is
    unfinished: its scores cover only the documents evaluated so far."""
    if parameter_set is not None:
        _promote_after(actor=actor, iteration=iteration, parameter_set=parameter_set)
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
    if candidate is None and run.best is None:
        raise Conflict(
            f"Tuning run {run.pk} proposes nothing. {run.proposal_note} Keep the parameters in "
            "use, or name a candidate to promote one anyway."
        )
    candidate = candidate or run.best
    if candidate is None or candidate.run_id != run.pk:
        raise InvalidInput(
            f"Candidate {candidate.pk if candidate else None} is not one of tuning run {run.pk}'s.",
            field="candidate",
        )
    with transaction.atomic():
        parameter_set = tuning_candidate_parameter_set(actor=actor, candidate=candidate)
        _promote_after(actor=actor, iteration=iteration, parameter_set=parameter_set)
    return parameter_set


@transaction.atomic
def _promote_after(*, actor: User, iteration: Iteration, parameter_set: ParameterSet) -> None:
    """Promote for the project and remember on the iteration what was promoted after it."""
    parameter_set_promote(
        actor=actor,
        project=iteration.project,
        parameter_set=parameter_set,
        iteration_number=iteration.number,
    )
    Iteration.objects.filter(pk=iteration.pk).update(promoted_parameter_set=parameter_set)
    iteration.promoted_parameter_set = parameter_set


def _put_in_iteration(
    actor: User, iteration: Iteration, documents: Sequence[Document], assignees: Mapping[int, Any]
) -> dict[int, list[int]]:
    """Move the documents into the iteration with their new assignees (those named); returns
    each one's assignees from before, for an undo."""
    previous = {d.pk: list(d.assignees.values_list("pk", flat=True)) for d in documents}
    for document in documents:
        document_update(
            actor=actor,
            document=document,
            iteration_id=iteration.pk,
            assignee_ids=assignees.get(document.pk),
        )
    return previous


def _start_pre_alignment(
    actor: User, iteration: Iteration, documents: list[Document], parameter_set: ParameterSet
) -> None:
    job = pre_align_start(
        actor=actor,
        project=iteration.project,
        documents=documents,
        parameter_set=parameter_set,
    )
    Iteration.objects.filter(pk=iteration.pk).update(pre_align_job=job)
    iteration.pre_align_job = job


def _start_tuning(actor: User, iteration: Iteration, grid: dict[str, list[Any]] | None) -> None:
    run = tuning_start(
        actor=actor,
        project=iteration.project,
        gold_documents=gold_documents(project_id=iteration.project_id),
        grid=grid,
        incumbent=parameters_in_use(project=iteration.project),
    )
    Iteration.objects.filter(pk=iteration.pk).update(tuning_run=run)
    iteration.tuning_run = run


@transaction.atomic
def _undo_open(actor: User, iteration: Iteration, previous_assignees: dict[int, list[int]]) -> None:
    for document in Document.objects.filter(pk__in=previous_assignees):
        document_assign(document=document, users=previous_assignees[document.pk])
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
def _undo_add(
    actor: User, iteration: Iteration, previous_assignees: dict[int, list[int]], job: Job | None
) -> None:
    for document in Document.objects.filter(pk__in=previous_assignees):
        document_update(
            actor=actor,
            document=document,
            iteration_id=None,
            assignee_ids=previous_assignees[document.pk],
        )
    Iteration.objects.filter(pk=iteration.pk).update(pre_align_job=job)
    iteration.pre_align_job = job
    record_event(
        actor=actor,
        action="iteration.add_documents_undone",
        target=iteration,
        project=iteration.project,
        number=iteration.number,
        reason="the pre-alignment job could not be queued",
    )


@transaction.atomic
def _undo_close(actor: User, iteration: Iteration) -> None:
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


def _check_batch(
    project: Project, documents: Sequence[Document], assignments: Mapping[int, Sequence[int]]
) -> None:
    if not documents:
        raise InvalidInput("An iteration needs at least one document.", field="documents")
    busy = (
        Iteration.objects.filter(project=project, closed_at__isnull=True, cancelled_at__isnull=True)
        .values_list("number", flat=True)
        .first()
    )
    if busy is not None:
        raise Conflict(
            f"Iteration {busy} is still open; close or cancel it before opening the next one, "
            "so that each iteration is pre-aligned with what the previous ones taught."
        )
    _check_new_documents(project, documents, assignments)


def _check_new_documents(
    project: Project, documents: Sequence[Document], assignments: Mapping[int, Sequence[int]]
) -> None:
    if not documents:
        raise InvalidInput("Name at least one document.", field="documents")
    foreign = [document for document in documents if document.project_id != project.pk]
    if foreign:
        raise InvalidInput(
            f"{_first_upper(_documents_named(foreign, 'is', 'are'))} not in this project.",
            field="documents",
        )
    unready = [d for d in documents if d.status not in READY_FOR_BATCH]
    if unready:
        raise InvalidInput(
            f"{_first_upper(_documents_named(unready, 'is', 'are'))} not imported (still "
            "importing, or the import failed).",
            field="documents",
        )
    taken = [d for d in documents if d.iteration_id is not None]
    if taken:
        raise InvalidInput(
            f"{_first_upper(_documents_named(taken, 'already belongs', 'already belong'))} to "
            "an iteration; a document is corrected once.",
            field="documents",
        )
    strangers = sorted(set(assignments) - {document.pk for document in documents})
    if strangers:
        raise InvalidInput(
            f"Assignments name documents {in_words(map(str, strangers))} that are not in the "
            "batch.",
            field="assignments",
        )


def _assignees_with_doubles(
    project: Project,
    documents: Sequence[Document],
    assignments: Mapping[int, Sequence[int]],
    double: DoubleAnnotation | None,
) -> tuple[dict[int, list[int]], dict[str, Any]]:
    """Each document's assignees once opened (only those that change), and the record of the
    double annotation (empty without one)."""
    if double is None:
        return {pk: list(users) for pk, users in assignments.items()}, {}
    batch = [document.pk for document in documents]
    current = {
        document.pk: list(
            assignments.get(document.pk)
            or document.assignees.order_by("pk").values_list("pk", flat=True)
        )
        for document in documents
    }
    seed = double.seed
    if double.documents is not None:
        strangers = sorted(set(double.documents) - set(batch))
        if strangers:
            raise InvalidInput(
                f"Documents {in_words(map(str, strangers))} are to be double-annotated but are "
                "not in the batch.",
                field="double_annotation",
            )
        drawn = sorted(set(double.documents))
    else:
        seed = secrets.randbelow(2**31) if seed is None else seed
        drawn = draw_documents(batch, double.share or 0.0, seed)
    members = Membership.objects.filter(project=project)
    pool = list(double.annotators or ())
    if not pool:
        pool = list(
            members.filter(role=Role.ANNOTATOR)
            .order_by("user_id")
            .values_list("user_id", flat=True)
        )
    strangers = sorted(set(pool) - set(members.values_list("user_id", flat=True)))
    if strangers:
        raise InvalidInput(
            f"Users {in_words(map(str, strangers))} are not members of this project.",
            field="double_annotation",
        )
    planned = add_second_annotators(current, drawn, pool)
    changed = {pk: users for pk, users in planned.items() if users != current[pk]}
    record = {"share": double.share, "seed": seed, "documents": drawn, "annotators": pool}
    return {**{pk: list(users) for pk, users in assignments.items()}, **changed}, record


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
    decisions = {document.pk: gold_refresh(document=document) for document in documents}
    waiting = [d for d in documents if decisions[d.pk].state == GoldState.UNSUBMITTED]
    disputed = [d for d in documents if decisions[d.pk].state == GoldState.NEEDS_ADJUDICATION]
    if waiting or disputed:
        reasons = []
        if waiting:
            reasons.append(
                f"{_documents_named(waiting, 'still waits', 'still wait')} for a submission "
                "from every assignee: wait for them, or take "
                f"{'it' if len(waiting) == 1 else 'them'} out of the iteration"
            )
        if disputed:
            reasons.append(
                f"{_documents_named(disputed, 'needs', 'need')} adjudication: their annotators' "
                "submissions disagree, so no submission is gold until a lead or curator "
                "adjudicates"
            )
        raise Conflict(
            f"Iteration {iteration.number} cannot close yet: {'; '.join(reasons)}.",
            reasons=[_first_upper(reason) + "." for reason in reasons],
            unsubmitted=[document.pk for document in waiting],
            needs_adjudication=[document.pk for document in disputed],
        )


def _first_upper(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:]


def _documents_named(documents: list[Document], singular: str, plural: str) -> str:
    """'document a needs' or 'documents a, b and c need', as a person reads them."""
    names = in_words(repr(document.name) for document in documents)
    if len(documents) == 1:
        return f"document {names} {singular}"
    return f"documents {names} {plural}"


REVIEW_SETTINGS = {"threshold": "review_threshold", "spot_check": "review_spot_check"}
"""What a lead sets of an iteration's review (`iteration_review_set`), by the field that holds
it: the confidence below which the editor's review mode shows a turn (None: `auto`,
`backend.iterations.review`), and the share of the turns left unread after review drawn for a
spot check before an annotator may accept the rest (None: none)."""


@transaction.atomic
def iteration_review_set(
    *, actor: User, iteration: Iteration, changes: Mapping[str, float | None]
) -> Iteration:
    """Set what `changes` names of REVIEW_SETTINGS. Refused once the iteration is closed or
    cancelled: its annotators' review is over, and how they reviewed is part of how its gold
    was made. Spot checks already drawn keep their share: each is an annotation's own sample."""
    share = changes.get("spot_check")
    if share is not None and not 0 < share <= 1:
        raise InvalidInput(
            f"spot_check: {share} is not a share of turns in (0, 1]; null turns the spot check "
            "off.",
            field="spot_check",
        )
    iteration = Iteration.objects.select_for_update().get(pk=iteration.pk)
    if iteration.closed_at is not None or iteration.cancelled_at is not None:
        raise Conflict(
            f"Iteration {iteration.number} is "
            f"{'closed' if iteration.closed_at is not None else 'cancelled'}: its "
            f"{in_words(name.replace('_', ' ') for name in changes)} can no longer change."
        )
    previous = {name: getattr(iteration, REVIEW_SETTINGS[name]) for name in changes}
    for name, value in changes.items():
        setattr(iteration, REVIEW_SETTINGS[name], value)
    iteration.save(update_fields=[REVIEW_SETTINGS[name] for name in changes])
    record_event(
        actor=actor,
        action="iteration.review",
        target=iteration,
        project=iteration.project,
        number=iteration.number,
        previous=previous,
        **changes,
    )
    return iteration
