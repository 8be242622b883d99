"""Writes of the gold. `gold_refresh` is the only writer of `Gold`: every change of what the
rule reads (a submission, a reopening, the assignees, an adjudication) refreshes it within that
change's transaction, the adjudication by calling it, the others through the events that
backend/curation/receivers.py subscribes to."""

from django.db import transaction
from django.utils import timezone

from backend.curation.models import Gold
from backend.curation.rule import GoldDecision, accepted_without_review
from backend.curation.selectors import gold_decision
from backend.documents.models import Document


@transaction.atomic
def gold_refresh(*, document: Document) -> GoldDecision:
    """Store the rule's verdict for `document`. A document of a closed iteration keeps the gold
    recorded when it closed: its records and tuning rest on it."""
    decision = gold_decision(document=document)
    if _in_closed_iteration(document):
        return decision
    rule, labels = decision.rule, decision.labels
    if not decision.is_gold or rule is None or labels is None:
        Gold.objects.filter(document_id=document.pk).delete()
        return decision
    Gold.objects.update_or_create(
        document_id=document.pk,
        defaults={
            "rule": rule,
            "labels": list(labels),
            "annotation_id": decision.annotation_id,
            "adjudication_id": decision.adjudication_id,
            "annotators": [submission.annotator_id for submission in decision.counted],
            "accepted_without_review": accepted_without_review(decision),
            "decided_at": timezone.now(),
        },
    )
    return decision


def _in_closed_iteration(document: Document) -> bool:
    return Document.objects.filter(pk=document.pk, iteration__closed_at__isnull=False).exists()
