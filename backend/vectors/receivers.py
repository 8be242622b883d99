"""The word vectors' reactions to changes below them (backend/core/events.py)."""

from functools import partial

from django.db import transaction

from backend.core.events import subscribe
from backend.documents.events import DocumentTextsStored
from backend.vectors.services import vectors_refresh_soon


def _retrain_after_commit(event: DocumentTextsStored) -> None:
    """New texts to train on; queued once the import commits, so that a broker that is down
    cannot undo it."""
    transaction.on_commit(partial(vectors_refresh_soon, project_id=event.project_id))


def subscribe_receivers() -> None:
    subscribe(DocumentTextsStored, _retrain_after_commit)
