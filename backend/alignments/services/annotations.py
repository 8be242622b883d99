"""Writes on annotations: an annotator's corrections of a pre-alignment (`annotation_apply`),
submitting them as gold and reopening them, each against the version the editor last saw.

Each write also carries the turns the annotator reviewed since the last one (visited or
confirmed in the editor; a changed turn counts as reviewed), which the effort dashboard counts;
a submission from the review mode may accept every turn not reviewed as the pre-alignment
proposed it, and those turns are recorded as accepted without review."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, NoReturn

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Count, F, Q
from django.utils import timezone

from backend.alignments.events import SubmissionsChanged
from backend.alignments.models import Annotation, PreAlignment
from backend.alignments.selectors import (
    annotation_state,
    caller_annotation,
    current_pre_alignment,
)
from backend.audit.services import record_event
from backend.core.errors import Conflict, Forbidden, InvalidInput
from backend.core.events import publish
from backend.documents.models import Document
from workers.align.document_model import UNALIGNED
from workers.align.report_order import first_order_break

Action = Literal["assign", "unalign", "reset"]
MAX_SECONDS_PER_WRITE = 24 * 3600


def clamped_seconds(seconds_spent: int) -> int:
    """Time a client reports for one write, bounded: a clock that jumped (a laptop that slept
    with the page open) must not add days to someone's effort."""
    return max(0, min(int(seconds_spent), MAX_SECONDS_PER_WRITE))


@dataclass(frozen=True)
class AssignmentOperation:
    """Applies to the inclusive run `first_turn..last_turn`; `segment` only for `assign`."""

    action: Action
    first_turn: int
    last_turn: int
    segment: int | None = None


@transaction.atomic
def annotation_apply(
    *,
    annotator: User,
    document: Document,
    version: int,
    operations: Sequence[AssignmentOperation],
    seconds_spent: int = 0,
    reviewed_turns: Sequence[int] = (),
) -> Annotation:
    """Apply a batch of edits made on `version` (possibly none, when the write only records
    reviewed turns); 409 with the current state when another write came first, 400 naming the
    problem when the result breaks the report's order."""
    if not operations:
        recorded = _record_reviewed(annotator, document, reviewed_turns)
        if recorded is not None:
            return recorded
    annotation, pre_alignment, baseline = _editable(annotator, document, version)
    assignments = edited_assignments(
        annotation.assignments if annotation else baseline, baseline, operations, document
    )
    annotation = _save(
        annotator,
        document,
        annotation,
        pre_alignment,
        version,
        assignments,
        baseline,
        seconds_spent,
        reviewed_turns,
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
    *,
    annotator: User,
    document: Document,
    version: int,
    seconds_spent: int = 0,
    reviewed_turns: Sequence[int] = (),
    accept_unreviewed: bool = False,
) -> Annotation:
    """Close the annotation; `seconds_spent` and `reviewed_turns` are the time and the turns
    since the last save, which no edit carried to the server. With `accept_unreviewed` (the
    review mode's "accept the rest"), every turn neither reviewed nor changed is recorded as
    accepted without review, for the gold and the exports to say so."""
    annotation, pre_alignment, baseline = _editable(annotator, document, version)
    if annotation is None:
        annotation = _save(annotator, document, None, pre_alignment, version, baseline, baseline, 0)
    reviewed = reviewed_flags(annotation, reviewed_turns, document)
    if accept_unreviewed:
        check_spot_check_read(annotation=annotation, reviewed=reviewed)
    updated = Annotation.objects.filter(pk=annotation.pk, version=annotation.version).update(
        submitted_at=timezone.now(),
        version=F("version") + 1,
        updated_at=timezone.now(),
        seconds_spent=F("seconds_spent") + clamped_seconds(seconds_spent),
        reviewed=reviewed,
        accepted_without_review=(
            [not turn for turn in reviewed] if accept_unreviewed and not all(reviewed) else []
        ),
    )
    if not updated:
        _stale(annotator, document)
    Document.objects.filter(pk=document.pk).update(status=Document.Status.SUBMITTED)
    annotation.refresh_from_db()
    publish(SubmissionsChanged(document=document))
    record_event(
        actor=annotator,
        action="annotation.submit",
        target=annotation,
        project=document.project,
        version=annotation.version,
    )
    return annotation


@transaction.atomic
def annotation_reopen(*, annotator: User, document: Document, version: int) -> Annotation:
    """Take one's submission back to correct it further, until the document's iteration is
    closed (closing freezes the gold into the iteration's records and its tuning run), and
    only while one may annotate the document: its assignee, or anyone when it has none."""
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
    check_assignee(document=document, annotator=annotator)
    annotation.submitted_at = None
    annotation.accepted_without_review = []
    annotation.version += 1
    annotation.save(
        update_fields=["submitted_at", "accepted_without_review", "version", "updated_at"]
    )
    if not Annotation.objects.filter(document=document, submitted_at__isnull=False).exists():
        Document.objects.filter(pk=document.pk).update(status=Document.Status.IN_ANNOTATION)
    publish(SubmissionsChanged(document=document))
    record_event(
        actor=annotator,
        action="annotation.reopen",
        target=annotation,
        project=document.project,
        version=annotation.version,
    )
    return annotation


def check_annotation_open(*, document: Document, annotator: User) -> None:
    """Annotations are taken until the document's iteration closes, from its assignees (from
    anyone, when it has none): a lead's copy of an annotator's document would otherwise end
    up beside the assignee's, and the gold rule counts only assignees."""
    iteration = document.iteration
    if iteration is not None and iteration.closed_at is not None:
        raise Conflict(
            f"Iteration {iteration.number} was closed on {iteration.closed_at:%Y-%m-%d %H:%M} "
            f"UTC: its gold is recorded and tuned on, so {document.name} takes no more "
            "annotations. Nothing was saved; ask a lead if this document needs another look."
        )
    check_assignee(document=document, annotator=annotator)


def check_assignee(*, document: Document, annotator: User) -> None:
    """Only assignees annotate a document that has some. Reopening is checked too: a lead's
    submission imported before the document was assigned to others could be withdrawn but
    then neither saved nor submitted again, stuck."""
    assignees = document.assignees.aggregate(
        every=Count("pk"), callers=Count("pk", filter=Q(pk=annotator.pk))
    )
    if assignees["every"] and not assignees["callers"]:
        raise Forbidden(
            f"{document.name} is assigned to someone else: you see their work read-only. "
            "A lead or curator corrects it through an adjudication."
        )


def check_spot_check_read(*, annotation: Annotation, reviewed: Sequence[bool]) -> None:
    """Refuses (409) accepting the rest unread while a turn drawn for the annotation's spot
    check (`backend.alignments.services.spot_check`) is unread: it would count as found right,
    and the estimate from the check would come out low."""
    check_all_read(
        annotation.spot_check.get("drawn", []),
        reviewed,
        "drawn for the spot check",
        "read them before accepting the rest. Nothing was submitted.",
    )


def check_all_read(
    turns: Sequence[int], reviewed: Sequence[bool], which: str, what_to_do: str
) -> None:
    """Refuses (409) while one of `turns` is not `reviewed`, naming how many and the first,
    with the turns in the answer for a client to go to."""
    unread = [turn for turn in turns if not reviewed[turn]]
    if unread:
        raise Conflict(
            f"{len(unread)} of the {len(turns)} turns {which} are not read yet (first: turn "
            f"{unread[0]}): {what_to_do}",
            turns=unread,
        )


def check_order(assignments: Sequence[int]) -> None:
    """Aligned turns must follow the report over the whole document (the engine's rule,
    `workers.align.report_order`, which the editor applies too)."""
    found = first_order_break(assignments)
    if found is not None:
        raise InvalidInput(
            f"Turn {found.turn} would be assigned to segment {found.segment}, which comes "
            f"before segment {found.earlier_segment} of turn {found.earlier_turn}: "
            "assignments must keep the report's order.",
            turn=found.turn,
        )


def _editable(
    annotator: User, document: Document, version: int
) -> tuple[Annotation | None, PreAlignment | None, list[int]]:
    """The caller's annotation (None before their first write), the pre-alignment it
    corrects and that pre-alignment's labels, the baseline it is compared with; refuses
    writes after the iteration closed, from members the document is not assigned to, on
    stale versions and on submitted annotations."""
    check_annotation_open(document=document, annotator=annotator)
    annotation = caller_annotation(document=document, annotator=annotator)
    current_version = annotation.version if annotation else 0
    if version != current_version:
        _stale(annotator, document, sent=version)
    if annotation and annotation.submitted_at:
        raise Conflict(
            "This annotation is submitted and can no longer be changed.",
            current=annotation_state(document=document, annotator=annotator),
        )
    if annotation:
        pre_alignment = annotation.pre_alignment
    else:
        pre_alignment = current_pre_alignment(document=document)
    baseline = pre_alignment.labels if pre_alignment else [UNALIGNED] * document.turn_count
    return annotation, pre_alignment, baseline


def edited_assignments(
    current: Sequence[int],
    baseline: Sequence[int],
    operations: Sequence[AssignmentOperation],
    document: Document,
) -> list[int]:
    """`current` after the batch, all or nothing: annotations and adjudications edit alike,
    and a batch that names a bad run or breaks the report's order changes nothing."""
    assignments = list(current)
    for index, operation in enumerate(operations):
        _apply_operation(operation, assignments, baseline, document, index)
    check_order(assignments)
    return assignments


def _apply_operation(
    operation: AssignmentOperation,
    assignments: list[int],
    baseline: Sequence[int],
    document: Document,
    index: int,
) -> None:
    """Apply one edit to `assignments` in place (`reset` goes back to `baseline`), naming the
    operation by `index` when it is bad."""
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


def _record_reviewed(
    annotator: User, document: Document, reviewed_turns: Sequence[int]
) -> Annotation | None:
    """Reviewed turns alone, merged into a stored open annotation without a new version: a
    union commutes with any other write, so a visit in one window must not make another
    window's copy stale. None when there is no such annotation yet (the caller then writes
    version 1 as for an edit)."""
    annotation = open_annotation_locked(document=document, annotator=annotator)
    if annotation is None:
        return None
    annotation.reviewed = reviewed_flags(annotation, reviewed_turns, document)
    annotation.save(update_fields=["reviewed"])
    record_event(
        actor=annotator,
        action="annotation.review",
        target=annotation,
        project=document.project,
        version=annotation.version,
        turns=len(reviewed_turns),
    )
    return annotation


def open_annotation_locked(*, document: Document, annotator: User) -> Annotation | None:
    """The caller's annotation while it is open (not submitted) and may still be written,
    locked for the write; None when there is none."""
    check_annotation_open(document=document, annotator=annotator)
    return (
        Annotation.objects.select_for_update()
        .filter(document=document, annotator=annotator, submitted_at__isnull=True)
        .first()
    )


def reviewed_flags(
    annotation: Annotation | None, reviewed_turns: Sequence[int], document: Document
) -> list[bool]:
    """Per turn, reviewed before or now: the stored flags, every turn changed so far and the
    turns named. A turn outside the document is refused (400), like a bad operation."""
    count = document.turn_count
    stored = annotation.reviewed if annotation and len(annotation.reviewed) == count else []
    changed = annotation.changed if annotation else []
    reviewed = [
        bool(stored and stored[turn]) or bool(changed and changed[turn]) for turn in range(count)
    ]
    for turn in reviewed_turns:
        if not 0 <= turn < count:
            raise InvalidInput(
                f"reviewed_turns: turn {turn} is not one of this document's turns 0..{count - 1}.",
                field="reviewed_turns",
            )
        reviewed[turn] = True
    return reviewed


def _save(
    annotator: User,
    document: Document,
    annotation: Annotation | None,
    pre_alignment: PreAlignment | None,
    version: int,
    assignments: list[int],
    baseline: list[int],
    seconds_spent: int,
    reviewed_turns: Sequence[int] = (),
) -> Annotation:
    """Creates the annotation on its first write, correcting `pre_alignment` (what
    `_editable` read its baseline from), else updates it if still at `version`."""
    changed = [now != before for now, before in zip(assignments, baseline, strict=True)]
    seconds = clamped_seconds(seconds_spent)
    reviewed = [
        flag or now_changed
        for flag, now_changed in zip(
            reviewed_flags(annotation, reviewed_turns, document), changed, strict=True
        )
    ]
    if annotation is None:
        try:
            with transaction.atomic():
                annotation = Annotation.objects.create(
                    document=document,
                    annotator=annotator,
                    pre_alignment=pre_alignment,
                    assignments=assignments,
                    changed=changed,
                    reviewed=reviewed,
                    seconds_spent=seconds,
                    version=1,
                )
        except IntegrityError:
            _stale(annotator, document, sent=version)
    else:
        edited = {
            "assignments": assignments,
            "changed": changed,
            "reviewed": reviewed,
            "version": version + 1,
            "updated_at": timezone.now(),
        }
        updated = Annotation.objects.filter(pk=annotation.pk, version=version).update(
            seconds_spent=F("seconds_spent") + seconds, **edited
        )
        if not updated:
            _stale(annotator, document, sent=version)
        # The row was at `version` when updated, so it held the seconds read with it.
        for field, value in edited.items():
            setattr(annotation, field, value)
        annotation.seconds_spent += seconds
    if document.status in NOT_YET_IN_ANNOTATION:
        Document.objects.filter(pk=document.pk, status__in=NOT_YET_IN_ANNOTATION).update(
            status=Document.Status.IN_ANNOTATION
        )
    return annotation


NOT_YET_IN_ANNOTATION = (Document.Status.IMPORTED, Document.Status.PRE_ALIGNED)


def _stale(annotator: User, document: Document, sent: int | None = None) -> NoReturn:
    current = annotation_state(document=document, annotator=annotator)
    raise Conflict(
        f"Your copy (version {sent}) is stale: the annotation is at version "
        f"{current['version']}. Reload it, reapply your change, and send again.",
        current=current,
    )
