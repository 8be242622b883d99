"""Where each person left off in a document's editor."""

from django.contrib.auth.models import User

from backend.alignments.models import ReadingPosition
from backend.core.errors import InvalidInput
from backend.documents.models import Document


def reading_position_save(*, user: User, document: Document, turn: int) -> ReadingPosition:
    if turn >= document.turn_count:
        raise InvalidInput(
            f"Turn {turn} is past the end of {document.name!r} ({document.turn_count} turns, "
            "numbered from 0).",
            field="turn",
        )
    position, _ = ReadingPosition.objects.update_or_create(
        document=document, user=user, defaults={"turn": turn}
    )
    return position
