"""The gold's reactions to changes below it (backend/core/events.py): each refreshes the gold
in the transaction of the change, so that the gold never disagrees with what it rests on."""

from backend.alignments.events import SubmissionsChanged
from backend.core.events import subscribe
from backend.curation.services import gold_refresh
from backend.documents.events import DocumentBatchChanged


def _refresh_gold(event: DocumentBatchChanged | SubmissionsChanged) -> None:
    gold_refresh(document=event.document)


def subscribe_receivers() -> None:
    subscribe(DocumentBatchChanged, _refresh_gold)
    subscribe(SubmissionsChanged, _refresh_gold)
