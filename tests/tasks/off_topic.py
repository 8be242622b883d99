"""An English document whose transcript has nothing to do with its report, stored as the
import job stores what the readers produce: a pre-alignment of it is degenerate."""

from backend.documents.models import Document
from backend.documents.services import document_store_parsed
from tests.align.off_topic_pair import off_topic_report, off_topic_transcript
from workers.align.readers import read_report, read_transcript


def off_topic_document(project, assignees=()) -> Document:
    """In `project` (whose language should be English), assigned to `assignees`."""
    document = Document.objects.create(project=project, name="council", source="upload")
    document_store_parsed(
        document=document,
        report=read_report(off_topic_report().encode(), "council_report.md", project.language),
        transcript=read_transcript(
            off_topic_transcript().encode(), "council_transcript.srt", project.language
        ),
    )
    document.assignees.set(assignees)
    return document
