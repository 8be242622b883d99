"""The public_meetings corpus in Tandem: the backend's one way to the engine's corpus module
(`workers.align.corpus`, which owns the corpus and its layout's names; what the rest of the
backend needs of it is imported from here), and the corpus's meetings as documents.

- `import_public_meeting` reads the package's raw .docx and .ctm files through the same
  readers and store as an upload, so demo data goes down the code path users take;
- `corpus_meeting_import` stores the corpus's own texts, so its labels point at exactly those
  turns (the simulation's), and `public_meeting_gold_import` adds its final alignment as gold
  (benchmarks and tests of tuning).
"""

from collections.abc import Iterable, Sequence
from importlib.metadata import version
from pathlib import Path
from typing import Literal

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from backend.alignments.models import Annotation
from backend.alignments.services.pre_alignments import (
    parameter_set_get_or_create,
    pre_alignment_record,
)
from backend.audit.services import record_event
from backend.curation.services import gold_refresh
from backend.documents.models import Document
from backend.documents.services import (
    document_assign,
    document_store_parsed,
    store_originals,
)
from backend.documents.uploads import CheckedFile
from backend.projects.models import Project
from workers.align.corpus import (
    CORPUS_SOURCE,
    corrected_turns,
    document_name,
    item_id,
    item_position,
    load_public_meetings,
    meeting_ids,
    meeting_of_source,
    raw_files,
    smallest_meetings,
    source_of,
)
from workers.align.document_model import Meeting
from workers.align.readers import read_report, read_transcript, require_content

__all__ = [
    "CORPUS_SOURCE",
    "corpus_meeting_import",
    "corrected_turns",
    "document_name",
    "import_public_meeting",
    "item_id",
    "item_position",
    "load_public_meetings",
    "meeting_ids",
    "meeting_of_source",
    "public_meeting_documents",
    "public_meeting_gold_import",
    "public_meeting_labels",
    "raw_files",
    "smallest_meetings",
    "source_of",
]

CORPUS_VERSION = f"{CORPUS_SOURCE} {version('public-meetings')}"
INITIAL_PARAMETER_SET = "public_meetings initial alignment"

Side = Literal["initial", "final"]


def public_meeting_documents(*, project: Project) -> QuerySet[Document]:
    """The project's documents that came from the corpus."""
    return Document.objects.filter(project=project, source__startswith=source_of(""))


def import_public_meeting(
    *,
    actor: User,
    project: Project,
    meeting_id: str,
    assignees: Iterable = (),
    with_initial_pre_alignment: bool = True,
) -> Document:
    """Idempotent: a meeting already imported into the project is returned as it is."""
    if meeting_id not in meeting_ids():
        raise KeyError(f"public_meetings has no meeting {meeting_id!r}")
    existing = _imported(project, meeting_id)
    if existing is not None:
        return existing
    report_path, transcript_paths = raw_files(meeting_id)
    report = read_report(report_path)
    transcript = read_transcript(transcript_paths)
    require_content(report, transcript)
    with transaction.atomic():
        document = Document.objects.create(
            project=project,
            name=document_name(meeting_id),
            source=source_of(meeting_id),
            created_by=actor,
        )
        store_originals(
            document,
            _checked(report_path),
            [_checked(path) for path in transcript_paths],
        )
        document_store_parsed(document=document, report=report, transcript=transcript)
        document_assign(document=document, users=assignees)
        labels = public_meeting_labels(
            meeting_id=meeting_id,
            side="initial",
            turn_texts=[turn.text for turn in transcript.turns],
        )
        if with_initial_pre_alignment and labels is not None:
            pre_alignment_record(
                document=document,
                parameter_set=parameter_set_get_or_create(
                    project=project,
                    name=INITIAL_PARAMETER_SET,
                    params={"source": "public_meetings `initial` side"},
                    engine_version=CORPUS_VERSION,
                ),
                labels=labels,
                engine_version=CORPUS_VERSION,
            )
        record_event(
            actor=actor,
            action="document.import_public_meeting",
            target=document,
            project=project,
            meeting=meeting_id,
        )
    return document


def public_meeting_labels(
    *, meeting_id: str, side: Side, turn_texts: Sequence[str]
) -> list[int] | None:
    """The corpus's labels for the imported turns, or None when the raw files read into
    other turns than the corpus lists (then its labels would point at the wrong turns).

    `initial` seeds a pre-alignment; `final` is the gold alignment, the hook for importing
    a meeting's reference as an annotation once gold corpora have a home.
    """
    meeting = load_public_meetings([meeting_id])[0]
    if [turn.text for turn in meeting.transcript.turns] != list(turn_texts):
        return None
    labels = meeting.initial if side == "initial" else meeting.reference
    return list(labels) if labels is not None else None


def _imported(project: Project, meeting_id: str) -> Document | None:
    return (
        Document.objects.filter(project=project, source=source_of(meeting_id))
        .exclude(status__in=[Document.Status.IMPORTING, Document.Status.IMPORT_FAILED])
        .first()
    )


def _checked(path: Path) -> CheckedFile:
    return CheckedFile(name=path.name, data=path.read_bytes())


@transaction.atomic
def corpus_meeting_import(
    *, actor: User, project: Project, meeting: Meeting, name: str | None = None
) -> Document:
    """The meeting's corpus texts (its `final` side), so the corpus's labels point at exactly
    these turns; stored through the import's own service, with no pre-alignment or gold."""
    document = Document.objects.create(
        project=project,
        name=name or document_name(meeting.id),
        source=source_of(meeting.id),
        created_by=actor,
    )
    document_store_parsed(document=document, report=meeting.report, transcript=meeting.transcript)
    record_event(
        actor=actor,
        action="document.import_public_meeting_corpus",
        target=document,
        project=project,
        meeting=meeting.id,
    )
    return document


@transaction.atomic
def public_meeting_gold_import(
    *, actor: User, project: Project, meeting_id: str, copy: int = 0
) -> Document:
    """The corpus's texts with its final alignment as a submitted annotation. Idempotent: a
    meeting (or that copy of it) already in the project is returned as it is. Copies let
    benchmarks build projects of hundreds of gold documents from the corpus's 22.

    The annotation is written directly rather than through the editor's services: the
    corpus's alignments are the reference, and four of them do not keep the report's order
    everywhere, which the editor (rightly) refuses from an annotator."""
    name = document_name(meeting_id) + (f" copy {copy}" if copy else "")
    existing = Document.objects.filter(
        project=project, source=source_of(meeting_id), name=name
    ).first()
    if existing is not None:
        return existing
    meeting = load_public_meetings([meeting_id])[0]
    if meeting.reference is None:
        raise ValueError(f"public_meetings' {meeting_id} has no reference alignment")
    document = corpus_meeting_import(actor=actor, project=project, meeting=meeting, name=name)
    Annotation.objects.create(
        document=document,
        annotator=actor,
        assignments=list(meeting.reference),
        changed=[True] * len(meeting.reference),
        submitted_at=timezone.now(),
        version=2,
    )
    Document.objects.filter(pk=document.pk).update(status=Document.Status.SUBMITTED)
    gold_refresh(document=document)
    record_event(
        actor=actor,
        action="document.import_public_meeting_gold",
        target=document,
        project=project,
        meeting=meeting.id,
    )
    document.refresh_from_db()
    return document
