"""What happens to documents that apps above them react to (backend/core/events.py)."""

from dataclasses import dataclass

from backend.core.events import Event
from backend.documents.models import Document


@dataclass(frozen=True)
class DocumentTextsStored(Event):
    """An import replaced the document's report segments and transcript turns."""

    document_id: int
    project_id: int


@dataclass(frozen=True)
class DocumentBatchChanged(Event):
    """The document's assignees or its iteration changed: whose submissions count towards
    its gold, and whether that gold is still open to change."""

    document: Document
