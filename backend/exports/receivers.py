"""The exports' reactions to changes below them (backend/core/events.py)."""

from backend.core.events import subscribe
from backend.documents.events import DocumentTextsStored
from backend.exports.unit_counts import unit_counts_reset


def _reset_unit_counts(event: DocumentTextsStored) -> None:
    """Counts of the texts an import replaced are stale: reset in the import's transaction."""
    unit_counts_reset(document_id=event.document_id)


def subscribe_receivers() -> None:
    subscribe(DocumentTextsStored, _reset_unit_counts)
