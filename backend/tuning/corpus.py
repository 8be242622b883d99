"""Gold documents straight from the public_meetings corpus, for benchmarks and tests of
tuning: the corpus's own texts (its `final` side, so its labels point at exactly these turns)
and its final alignment as a submitted annotation.

The annotation is written directly rather than through the editor's services: the corpus's
alignments are the reference, and four of them do not keep the report's order everywhere,
which the editor (rightly) refuses from an annotator.
"""

from django.db import transaction
from django.utils import timezone

from backend.alignments.models import Annotation
from backend.audit.services import record_event
from backend.documents.models import Document
from backend.documents.public_meetings import corpus_meeting_import, source_of
from backend.projects.models import Project
from workers.align.corpus import load_public_meetings


@transaction.atomic
def public_meeting_gold_import(*, actor, project: Project, meeting_id: str) -> Document:
    """Idempotent: a meeting already in the project is returned as it is."""
    existing = Document.objects.filter(project=project, source=source_of(meeting_id)).first()
    if existing is not None:
        return existing
    meeting = load_public_meetings([meeting_id])[0]
    document = corpus_meeting_import(actor=actor, project=project, meeting=meeting)
    now = timezone.now()
    Annotation.objects.create(
        document=document,
        annotator=actor,
        assignments=list(meeting.reference),
        changed=[True] * len(meeting.reference),
        submitted_at=now,
        version=2,
    )
    Document.objects.filter(pk=document.pk).update(status=Document.Status.SUBMITTED)
    record_event(
        actor=actor,
        action="document.import_public_meeting_gold",
        target=document,
        project=project,
        meeting=meeting.id,
    )
    document.refresh_from_db()
    return document
