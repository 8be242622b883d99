"""What happens to annotations that apps above them react to (backend/core/events.py)."""

from dataclasses import dataclass

from backend.core.events import Event
from backend.documents.models import Document


@dataclass(frozen=True)
class SubmissionsChanged(Event):
    """An annotation of the document was submitted or reopened."""

    document: Document
