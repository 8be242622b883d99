"""Reads of the gold: the stored verdict (what every consumer reads) and the live decision
(why a document has no gold yet, for closing and the lead's views)."""

from collections.abc import Iterable
from typing import TypedDict

from django.db.models import Count, Prefetch, Q

from backend.alignments.models import Annotation
from backend.alignments.selectors import (
    annotation_with_username,
    current_pre_alignment,
    document_payload_json,
    editor_document_row,
    listening,
    low_confidence_below,
    pre_alignment_dict,
)
from backend.curation.models import Adjudication, Gold, GoldState
from backend.curation.rule import CompletedAdjudication, GoldDecision, Submission, decide_gold
from backend.documents.models import Document


def document_gold(*, document_id: int) -> Gold | None:
    """A document's gold, or None while it has none (unsubmitted, or needing adjudication)."""
    return Gold.objects.filter(document_id=document_id).first()


def gold_by_document(*, document_ids: Iterable[int]) -> dict[int, Gold]:
    return {gold.document_id: gold for gold in Gold.objects.filter(document_id__in=document_ids)}


def gold_rules(*, document_ids: Iterable[int]) -> dict[int, str]:
    """Which rule made each gold document's gold, without reading the labels."""
    return dict(
        Gold.objects.filter(document_id__in=document_ids).values_list("document_id", "rule")
    )


def undecided_gold_state(document: Document) -> GoldState:
    """Why a document without a stored gold has none, from its prefetched `assignees` and
    `annotations` (submitted or not): a completed adjudication always stores a gold, so the
    rule runs without one."""
    submitted = sorted(
        (a for a in document.annotations.all() if a.submitted_at is not None),
        key=lambda annotation: (annotation.submitted_at, annotation.pk),
    )
    return decide_gold(
        assignee_ids=[user.pk for user in document.assignees.all()],
        submissions=[Submission(a.pk, a.annotator_id, tuple(a.assignments)) for a in submitted],
        adjudication=None,
    ).state


def documents_needing_adjudication(*, project_id: int) -> list[int]:
    """The project's documents, by id, whose counted submissions disagree and that wait for a
    lead or curator to adjudicate. Only documents without a gold and with two submissions or
    more can: the rule runs on those alone."""
    candidates = (
        Document.objects.filter(project_id=project_id, gold__isnull=True)
        .annotate(
            submissions=Count("annotations", filter=Q(annotations__submitted_at__isnull=False))
        )
        .filter(submissions__gte=2)
        .only("pk")
        .prefetch_related(
            "assignees",
            Prefetch(
                "annotations",
                queryset=Annotation.objects.filter(submitted_at__isnull=False).only(
                    "document_id", "annotator_id", "submitted_at", "assignments"
                ),
            ),
        )
        .order_by("pk")
    )
    return [
        document.pk
        for document in candidates
        if undecided_gold_state(document) == GoldState.NEEDS_ADJUDICATION
    ]


def document_submissions(*, document_id: int) -> list[Annotation]:
    """Every submitted annotation of the document, in submission order."""
    return list(
        Annotation.objects.filter(document_id=document_id, submitted_at__isnull=False)
        .select_related("annotator")
        .order_by("submitted_at", "id")
    )


def gold_decision(*, document: Document) -> GoldDecision:
    """What the gold rule says from the rows as they are now."""
    adjudication = (
        Adjudication.objects.filter(document_id=document.pk, completed_at__isnull=False)
        .values_list("pk", "assignments")
        .first()
    )
    return decide_gold(
        assignee_ids=list(document.assignees.order_by("pk").values_list("pk", flat=True)),
        submissions=[
            Submission(
                annotation.pk,
                annotation.annotator_id,
                tuple(annotation.assignments),
                tuple(annotation.accepted_without_review),
            )
            for annotation in document_submissions(document_id=document.pk)
        ],
        adjudication=(
            CompletedAdjudication(adjudication[0], tuple(adjudication[1])) if adjudication else None
        ),
    )


def adjudication_payload_json(*, project_id: int, document_id: int) -> str:
    """Everything the adjudication view shows, in one request: the document as the editor
    loads it, the counted submissions side by side, the adjudication and the gold's state."""
    row = editor_document_row(
        project_id=project_id, document_id=document_id, user=None, only_assigned=False
    )
    document = Document.objects.only("pk", "project_id", "iteration_id", "name").get(pk=row["id"])
    decision = gold_decision(document=document)
    counted = {submission.annotation_id for submission in decision.counted}
    annotations = [
        annotation_with_username(annotation)
        for annotation in document_submissions(document_id=document.pk)
        if annotation.pk in counted
    ]
    pre_alignment = current_pre_alignment(document=document)
    iteration_closed = Document.objects.filter(
        pk=document.pk, iteration__closed_at__isnull=False
    ).exists()
    return document_payload_json(
        row,
        pre_alignment=(
            pre_alignment_dict(
                pre_alignment, low_confidence_below(row["project__settings"]), with_warnings=True
            )
            if pre_alignment
            else None
        ),
        annotations=annotations,
        adjudication=adjudication_state(document=document),
        gold={
            "state": decision.state,
            "rule": decision.rule,
            "waiting_for": list(decision.waiting_for),
        },
        may_reopen=not iteration_closed,
        **listening(row),
    )


class AdjudicationState(TypedDict):
    """An adjudication as the editor and a 409's `current` read it (`id` None, version 0,
    before the curator's first write)."""

    id: int | None
    version: int
    curator: int | None
    sources: list[int]
    baseline: list[int]
    assignments: list[int]
    changed: list[bool]
    seconds_spent: int
    completed_at: str | None
    note: str


def adjudication_state(*, document: Document) -> AdjudicationState:
    """The adjudication as the editor sees it; before the first write, a version 0 copy of
    the earliest counted submission."""
    adjudication = Adjudication.objects.filter(document=document).first()
    if adjudication is not None:
        return adjudication_dict(adjudication)
    counted = gold_decision(document=document).counted
    baseline = list(counted[0].labels) if counted else []
    return {
        "id": None,
        "version": 0,
        "curator": None,
        "sources": [submission.annotation_id for submission in counted],
        "baseline": baseline,
        "assignments": baseline,
        "changed": [False] * len(baseline),
        "seconds_spent": 0,
        "completed_at": None,
        "note": "",
    }


def adjudication_dict(adjudication: Adjudication) -> AdjudicationState:
    return {
        "id": adjudication.pk,
        "version": adjudication.version,
        "curator": adjudication.curator_id,
        "sources": adjudication.sources,
        "baseline": adjudication.baseline,
        "assignments": adjudication.assignments,
        "changed": [
            now != before
            for now, before in zip(adjudication.assignments, adjudication.baseline, strict=True)
        ],
        "seconds_spent": adjudication.seconds_spent,
        "completed_at": (
            adjudication.completed_at.isoformat() if adjudication.completed_at else None
        ),
        "note": adjudication.note,
    }
