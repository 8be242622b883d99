"""Adjudication: a lead or curator decides a document's gold by comparing its annotators'
submissions, editing with the editor's operations and its optimistic concurrency.

It starts (version 0) from the earliest counted submission; completing it makes it the gold
(`backend.curation.rule`), reopening it gives the decision back to the rule. Both, and every
edit, stop when the document's iteration closes, since its gold is then recorded.
"""

from collections.abc import Sequence
from typing import NoReturn

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from backend.alignments.services.annotations import (
    AssignmentOperation,
    clamped_seconds,
    edited_assignments,
)
from backend.audit.services import record_event
from backend.core.errors import Conflict
from backend.curation.models import Adjudication
from backend.curation.selectors import adjudication_dict, adjudication_state, gold_decision
from backend.curation.services import gold_refresh
from backend.documents.models import Document


@transaction.atomic
def adjudication_apply(
    *,
    curator: User,
    document: Document,
    version: int,
    operations: Sequence[AssignmentOperation],
    seconds_spent: int = 0,
) -> Adjudication:
    """Apply a batch of edits made on `version`, all or nothing: 409 with the current state
    when another write came first or the adjudication is completed, 400 naming the problem."""
    adjudication, baseline = _editable(document, version)
    assignments = edited_assignments(
        adjudication.assignments if adjudication else baseline, baseline, operations, document
    )
    seconds = clamped_seconds(seconds_spent)
    if adjudication is None:
        adjudication = _create(curator, document, version, baseline, assignments, seconds)
    else:
        updated = Adjudication.objects.filter(pk=adjudication.pk, version=version).update(
            assignments=assignments,
            curator=curator,
            seconds_spent=F("seconds_spent") + seconds,
            version=version + 1,
            updated_at=timezone.now(),
        )
        if not updated:
            _stale(document, version)
        adjudication.refresh_from_db()
    record_event(
        actor=curator,
        action="adjudication.update",
        target=adjudication,
        project=document.project,
        version=adjudication.version,
        operations=len(operations),
    )
    return adjudication


@transaction.atomic
def adjudication_complete(
    *, curator: User, document: Document, version: int, seconds_spent: int = 0
) -> Adjudication:
    """The adjudication becomes the document's gold."""
    adjudication, baseline = _editable(document, version)
    if adjudication is None:
        adjudication = _create(curator, document, version, baseline, baseline, 0)
    updated = Adjudication.objects.filter(pk=adjudication.pk, version=adjudication.version).update(
        completed_at=timezone.now(),
        curator=curator,
        version=F("version") + 1,
        seconds_spent=F("seconds_spent") + clamped_seconds(seconds_spent),
        updated_at=timezone.now(),
    )
    if not updated:
        _stale(document, version)
    adjudication.refresh_from_db()
    gold_refresh(document=document)
    record_event(
        actor=curator,
        action="adjudication.complete",
        target=adjudication,
        project=document.project,
        version=adjudication.version,
    )
    return adjudication


@transaction.atomic
def adjudication_reopen(*, curator: User, document: Document, version: int) -> Adjudication:
    """Take the decision back to change it; the gold rule decides meanwhile."""
    _check_open(document)
    adjudication = Adjudication.objects.select_for_update().filter(document=document).first()
    if adjudication is None or adjudication.completed_at is None:
        raise Conflict("This adjudication is not completed; there is nothing to reopen.")
    if adjudication.version != version:
        _stale(document, version)
    adjudication.completed_at = None
    adjudication.version += 1
    adjudication.save(update_fields=["completed_at", "version", "updated_at"])
    gold_refresh(document=document)
    record_event(
        actor=curator,
        action="adjudication.reopen",
        target=adjudication,
        project=document.project,
        version=adjudication.version,
    )
    return adjudication


def _editable(document: Document, version: int) -> tuple[Adjudication | None, list[int]]:
    _check_open(document)
    adjudication = Adjudication.objects.filter(document=document).first()
    current_version = adjudication.version if adjudication else 0
    if version != current_version:
        _stale(document, version)
    if adjudication is not None and adjudication.completed_at is not None:
        raise Conflict(
            "This adjudication is completed: it is the document's gold. Reopen it to change it.",
            current=adjudication_dict(adjudication),
        )
    if adjudication is not None:
        return adjudication, list(adjudication.baseline)
    counted = gold_decision(document=document).counted
    if not counted:
        raise Conflict(
            f"{document.name} has no submission to adjudicate yet: adjudication compares "
            "what its annotators submitted."
        )
    return None, list(counted[0].labels)


def _check_open(document: Document) -> None:
    iteration = document.iteration
    if iteration is not None and iteration.closed_at is not None:
        raise Conflict(
            f"Iteration {iteration.number} was closed on {iteration.closed_at:%Y-%m-%d %H:%M} "
            f"UTC: the gold of {document.name} is recorded and tuned on, so it can no longer "
            "be adjudicated."
        )


def _create(
    curator: User,
    document: Document,
    version: int,
    baseline: list[int],
    assignments: list[int],
    seconds: int,
) -> Adjudication:
    try:
        with transaction.atomic():
            return Adjudication.objects.create(
                document=document,
                curator=curator,
                sources=[s.annotation_id for s in gold_decision(document=document).counted],
                baseline=baseline,
                assignments=assignments,
                seconds_spent=seconds,
                version=1,
            )
    except IntegrityError:
        _stale(document, version)


def _stale(document: Document, sent: int) -> NoReturn:
    current = adjudication_state(document=document)
    raise Conflict(
        f"Your copy (version {sent}) is stale: the adjudication is at version "
        f"{current['version']}. Reload it, reapply your change, and send again.",
        current=current,
    )
