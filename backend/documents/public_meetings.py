"""The public_meetings corpus as Tandem documents, read from the package's raw .docx and
.ctm files through the same readers and store as an upload, so demo and simulation data
go down the code path users take."""

from collections.abc import Iterable, Sequence
from importlib.metadata import version
from pathlib import Path
from typing import Literal

import public_meetings
from django.db import transaction

from backend.alignments.services import parameter_set_get_or_create, pre_alignment_record
from backend.audit.services import record_event
from backend.documents.models import Document
from backend.documents.services import (
    document_assign,
    document_store_parsed,
    require_content,
    store_originals,
)
from backend.documents.uploads import CheckedFile
from backend.projects.models import Project
from workers.align.corpus import load_public_meetings, meeting_ids
from workers.align.model import Meeting
from workers.align.readers import read_report, read_transcript

CORPUS_VERSION = f"public_meetings {version('public-meetings')}"
INITIAL_PARAMETER_SET = "public_meetings initial alignment"

Side = Literal["initial", "final"]


def source_of(meeting_id: str) -> str:
    return f"public_meetings:{meeting_id}"


def raw_files(meeting_id: str) -> tuple[Path, list[Path]]:
    root = Path(public_meetings.data_root)
    parts = sorted(root.glob(f"{meeting_id}.*.ctm"), key=lambda path: int(path.suffixes[-2][1:]))
    return root / f"{meeting_id}.docx", parts


def smallest_meetings(count: int) -> list[str]:
    """By transcript turns: the quickest meetings to annotate, hence the demo's."""
    meetings = load_public_meetings()
    by_size = sorted(meetings, key=lambda meeting: (len(meeting.transcript.turns), meeting.id))
    return [meeting.id for meeting in by_size[:count]]


def import_public_meeting(
    *,
    actor,
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
            name=f"public_meetings {meeting_id[:8]}",
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
def corpus_meeting_import(*, actor, project: Project, meeting: Meeting) -> Document:
    """The meeting's corpus texts (its `final` side), so the corpus's labels point at exactly
    these turns; stored through the import's own service, with no pre-alignment or gold."""
    document = Document.objects.create(
        project=project,
        name=f"public_meetings {meeting.id[:8]}",
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
