"""Talk documents stored as the import job stores them, without a worker (the job itself is
tested on a real worker in test_talk_projects.py)."""

from backend.documents.models import Document
from backend.documents.services import document_store_parsed, paper_report
from backend.projects.models import Project
from tests.align.paper_fixtures import markdown_paper, talk_srt
from workers.align.readers import read_paper, read_transcript


def talk_document(project: Project, name: str, unit: str) -> Document:
    """A paper and its talk stored as the import job stores them, cut per `unit`."""
    document = Document.objects.create(project=project, name=name, status=Document.Status.IMPORTED)
    report, sections = paper_report(read_paper(markdown_paper(), "paper.md", "en"), unit)
    transcript = read_transcript(talk_srt(), "talk.srt", "en")
    document_store_parsed(
        document=document, report=report, transcript=transcript, sections=sections
    )
    return document
