"""Writes on documents: upload, the import job's parse-and-store, edits and deletion."""

import json
import logging
from collections.abc import Iterable, Mapping, Sequence
from functools import partial
from typing import Any, cast

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.files.base import ContentFile, File
from django.db import IntegrityError, transaction

from backend.audit.services import record_event
from backend.core.errors import Conflict, InvalidInput, NotFound
from backend.core.events import publish
from backend.documents.events import DocumentBatchChanged, DocumentTextsStored
from backend.documents.models import Document, OriginalFile, ReportSegment, TranscriptTurn
from backend.documents.uploads import CheckedAudio, CheckedFile, CheckedUpload, archive_limits
from backend.jobs.models import Job
from backend.jobs.services import (
    job_begin,
    job_create,
    job_fail,
    job_lock_if_running,
    job_report_progress,
    job_submit,
    job_succeed,
    unexpected_failure,
)
from backend.projects.models import Project
from backend.projects.podcasts import is_podcast, window_config
from backend.projects.talks import is_talk, report_unit
from workers.align.document_model import Paper, ReaderError, Report, Segment, Transcript
from workers.align.podcasts.time_windows import window_transcript
from workers.align.readers import (
    SEGMENTATION_RULES,
    read_description_file,
    read_paper,
    read_report,
    read_transcript,
    require_content,
)
from workers.align.setting_fields import in_words

logger = logging.getLogger(__name__)

IMPORT_TASK = "backend.documents.tasks.import_document"
UNCHANGED = object()
"""Marks an update argument that was not sent, where None means "clear it"."""


def document_upload(
    *,
    actor: User,
    project: Project,
    name: str,
    upload: CheckedUpload,
    audio: CheckedAudio | None = None,
    units: Mapping[str, Any] | None = None,
) -> Job:
    """Store the files (and the recording, if sent) and queue their parsing; `units`, the
    document's own `transcript_unit` and `window_seconds`, go to the import with the job.
    When the broker cannot take the task, the document and its files are removed again and
    the job stays behind, failed, as a record."""
    with transaction.atomic():
        document = Document.objects.create(
            project=project, name=name or upload.report.name, source="upload", created_by=actor
        )
        store_originals(document, upload.report, upload.transcripts, audio)
        job = job_create(
            kind=Job.Kind.IMPORT_DOCUMENT,
            project=project,
            document=document,
            created_by=actor,
            arguments={"units": dict(units)} if units else None,
        )
        record_event(
            actor=actor,
            action="document.upload",
            target=document,
            project=project,
            files=[
                upload.report.name,
                *(part.name for part in upload.transcripts),
                *([audio.name] if audio else []),
            ],
        )
    return job_submit(
        job=job,
        task_name=IMPORT_TASK,
        undo=partial(document_delete, actor=actor, document=document),
    )


SEGMENTED_BY = {
    kind: f"imported: {{count}} segments, {rule}" for kind, rule in SEGMENTATION_RULES.items()
}
"""What an import job says of the report's segmentation, so a lead sees how it was cut."""


def document_import_run(*, job_id: int, task_id: str | None = None) -> None:
    """The import job's body: parse outside any transaction (it takes seconds), then write
    every row in one. Running it twice leaves the same rows; a ReaderError fails the job at
    once, since retrying cannot fix a file."""
    job = job_begin(job_id=job_id, task_id=task_id)
    if job is None or job.document is None:
        return
    document = job.document
    originals = list(document.files.all())
    project = document.project
    try:
        language = project.language
        sections: tuple[str, ...] = ()
        if is_talk(project):
            report, sections = paper_report(_read_paper(originals, language), report_unit(project))
        elif is_podcast(project):
            report = _read_description(originals, language)
        else:
            report = _read_report(originals, language)
        job_report_progress(job_id=job_id, progress=0.4, message="report read")
        transcript = _read_transcript(originals, language)
        windows = window_config(project, job.arguments.get("units"))
        if windows is not None:
            transcript = window_transcript(transcript, windows)
        require_content(report, transcript)
        job_report_progress(job_id=job_id, progress=0.8, message="transcript read")
    except ReaderError as error:
        _import_failed(job_id, document.pk, str(error))
        return
    except Exception as error:
        _import_failed(job_id, document.pk, unexpected_failure(job_id=job_id, error=error))
        raise
    with transaction.atomic():
        if job_lock_if_running(job_id=job_id, task_id=task_id) is None:
            return
        document_store_parsed(
            document=document, report=report, transcript=transcript, sections=sections
        )
        job_succeed(
            job=job,
            result={
                "document": document.pk,
                "segments": document.segment_count,
                "turns": document.turn_count,
                "words": document.word_count,
                "segmented_by": report.segmented_by,
            },
            message=SEGMENTED_BY[report.segmented_by].format(count=document.segment_count),
        )


@transaction.atomic
def document_store_parsed(
    *, document: Document, report: Report, transcript: Transcript, sections: Sequence[str] = ()
) -> None:
    """Replace the document's segments and turns with what the readers produced; `sections`
    are a paper's section titles, one per segment (none for a meeting report)."""
    if sections and len(sections) != len(report.segments):
        raise ValueError(f"{len(sections)} section titles for {len(report.segments)} segments")
    document.segments.all().delete()
    document.turns.all().delete()
    segments = ReportSegment.objects.bulk_create(
        ReportSegment(
            document=document,
            position=position,
            key=segment.id,
            text=segment.text,
            sentences=list(segment.sentences),
            speaker=segment.speaker or "",
            section=sections[position] if sections else "",
            word_count=sum(len(sentence.split()) for sentence in segment.sentences),
        )
        for position, segment in enumerate(report.segments)
    )
    turns = TranscriptTurn.objects.bulk_create(
        TranscriptTurn(
            document=document,
            position=position,
            key=turn.id,
            text=turn.text,
            sentences=list(turn.sentences),
            speaker=turn.speaker or "",
            start=turn.start,
            end=turn.end,
            word_count=turn.word_count,
            words=[[word.text, word.start, word.end, word.confidence] for word in turn.words],
        )
        for position, turn in enumerate(transcript.turns)
    )
    document.segments_json = _compact_json(
        {
            "position": segment.position,
            "key": segment.key,
            "speaker": segment.speaker,
            "section": segment.section,
            "text": segment.text,
            "word_count": segment.word_count,
        }
        for segment in segments
    )
    document.turns_json = _compact_json(
        {
            "position": turn.position,
            "key": turn.key,
            "speaker": turn.speaker,
            "start": turn.start,
            "end": turn.end,
            "text": turn.text,
            "word_count": turn.word_count,
        }
        for turn in turns
    )
    document.segment_count = len(segments)
    document.turn_count = len(turns)
    document.word_count = sum(turn.word_count for turn in turns)
    document.status = Document.Status.IMPORTED
    document.import_error = ""
    document.save()
    publish(DocumentTextsStored(document_id=document.pk, project_id=document.project_id))


@transaction.atomic
def document_update(
    *,
    actor: User,
    document: Document,
    name: str | None = None,
    iteration_id: int | object | None = UNCHANGED,
    assignee_ids: Sequence[int] | None = None,
) -> Document:
    changed = []
    if name is not None:
        document.name = name
        changed.append("name")
    if iteration_id is not UNCHANGED:
        if (
            iteration_id is not None
            and not Project.objects.filter(
                pk=document.project_id, iterations=cast(int, iteration_id)
            ).exists()
        ):
            raise InvalidInput(
                f"Project {document.project_id} has no iteration {iteration_id}.",
                field="iteration",
            )
        _check_leaves_no_closed_iteration(document, cast("int | None", iteration_id))
        document.iteration_id = cast("int | None", iteration_id)
        changed.append("iteration")
    if changed:
        document.save(update_fields=[*changed, "updated_at"])
    if assignee_ids is not None:
        document_assign(document=document, users=_members(document.project_id, assignee_ids))
        changed.append("assignees")
    elif "iteration" in changed:
        publish(DocumentBatchChanged(document=document))
    record_event(
        actor=actor,
        action="document.update",
        target=document,
        project=document.project,
        fields=changed,
    )
    return document


@transaction.atomic
def document_assign(*, document: Document, users: Iterable) -> None:
    """Whose submissions count towards the gold changes with the assignees."""
    document.assignees.set(users)
    publish(DocumentBatchChanged(document=document))


@transaction.atomic
def document_delete(*, actor: User, document: Document) -> None:
    """Refused while the document is in an open iteration, whose batch the lead is following;
    taking it out first is one click, and says what happens to its annotations."""
    iteration = document.iteration
    if iteration is not None and iteration.closed_at is None:
        raise Conflict(
            f"Document {document.name!r} is in iteration {iteration.number}, which is open; "
            "take it out of the iteration before deleting it."
        )
    stored = [original.file.name for original in document.files.all() if original.file.name]
    record_event(
        actor=actor,
        action="document.delete",
        target=document,
        project=document.project,
        name=document.name,
    )
    storage = OriginalFile._meta.get_field("file").storage
    document.delete()

    def delete_stored_files() -> None:
        for name in stored:
            storage.delete(name)

    transaction.on_commit(delete_stored_files)


def _check_leaves_no_closed_iteration(document: Document, iteration_id: int | None) -> None:
    """A closed iteration's records and tuning rest on its batch, so the batch stays whole."""
    if document.iteration_id is None or document.iteration_id == iteration_id:
        return
    current = document.iteration
    if current is not None and current.closed_at is not None:
        raise Conflict(
            f"Document {document.name!r} belongs to iteration {current.number}, which is "
            "closed: its accuracy records and tuning rest on it."
        )


def _members(project_id: int, user_ids: Sequence[int]) -> list:
    wanted = set(user_ids)
    members = list(
        get_user_model().objects.filter(
            pk__in=wanted, memberships__project_id=project_id, is_active=True
        )
    )
    missing = sorted(wanted - {user.pk for user in members})
    if missing:
        raise InvalidInput(
            f"Users {in_words(map(str, missing))} are not members of project {project_id}.",
            field="assignees",
        )
    return members


def store_originals(
    document: Document,
    report: CheckedFile,
    transcripts: Sequence[CheckedFile],
    audio: CheckedAudio | None = None,
) -> None:
    parts = [(OriginalFile.Role.REPORT, 0, report)] + [
        (OriginalFile.Role.TRANSCRIPT, position, part) for position, part in enumerate(transcripts)
    ]
    stored: list[OriginalFile] = []
    try:
        for role, position, checked in parts:
            original = OriginalFile(
                document=document,
                role=role,
                position=position,
                original_name=checked.name,
                size=len(checked.data),
                sha256=checked.sha256,
            )
            original.file.save(checked.name, ContentFile(checked.data), save=True)
            stored.append(original)
        if audio is not None:
            recording = _stored_audio(document, audio)
            stored.append(recording)
            recording.save()
    except BaseException:
        for original in stored:
            original.file.delete(save=False)
        raise


def _stored_audio(document: Document, audio: CheckedAudio) -> OriginalFile:
    """The recording copied to storage by chunks (or moved there, from the upload's temporary
    file), its row not yet saved."""
    original = OriginalFile(
        document=document,
        role=OriginalFile.Role.AUDIO,
        original_name=audio.name,
        size=audio.size,
        sha256=audio.sha256,
    )
    original.file.save(audio.name, File(audio.upload, name=audio.name), save=False)
    return original


def document_audio_replace(*, actor: User, document: Document, audio: CheckedAudio) -> OriginalFile:
    """Store the document's recording, replacing the one it had. The new file is written
    first and the rows swapped in one transaction, so a failure at any point leaves the old
    recording in place (and the new file removed); the old file goes once the swap commits.
    Two replacements at once are serialised on the document's row; where the database cannot
    lock rows (SQLite), the later one finds the other's recording stored and gets a 409."""
    original = _stored_audio(document, audio)
    try:
        with transaction.atomic():
            if not Document.objects.select_for_update().filter(pk=document.pk).exists():
                raise NotFound(f"Document {document.pk} was deleted meanwhile.")
            old = list(
                OriginalFile.objects.select_for_update().filter(
                    document=document, role=OriginalFile.Role.AUDIO
                )
            )
            OriginalFile.objects.filter(pk__in=[row.pk for row in old]).delete()
            original.save()
            record_event(
                actor=actor,
                action="document.audio_replace" if old else "document.audio_add",
                target=document,
                project=document.project,
                name=audio.name,
                size=audio.size,
            )
            transaction.on_commit(partial(_delete_stored, [row.file.name for row in old]))
    except IntegrityError as error:
        original.file.delete(save=False)
        raise Conflict(
            "Another recording of this document was stored at the same moment; "
            "reload to see it, and send yours again to replace it."
        ) from error
    except BaseException:
        original.file.delete(save=False)
        raise
    return original


@transaction.atomic
def document_audio_delete(*, actor: User, document: Document) -> None:
    recordings = list(
        OriginalFile.objects.select_for_update().filter(
            document=document, role=OriginalFile.Role.AUDIO
        )
    )
    if not recordings:
        raise NotFound(f"Document {document.pk} has no recording.")
    OriginalFile.objects.filter(pk__in=[row.pk for row in recordings]).delete()
    record_event(
        actor=actor,
        action="document.audio_delete",
        target=document,
        project=document.project,
        name=recordings[0].original_name,
    )
    transaction.on_commit(partial(_delete_stored, [row.file.name for row in recordings]))


def _delete_stored(names: Sequence[str | None]) -> None:
    storage = OriginalFile._meta.get_field("file").storage
    for name in names:
        if name:
            storage.delete(name)


def _read_report(originals: list[OriginalFile], language: str) -> Report:
    """`language`, the project's, chooses the engine's tokenizer."""
    report = next(file for file in originals if file.role == OriginalFile.Role.REPORT)
    with report.file.open("rb") as handle:
        return read_report(handle.read(), report.original_name, language, archive_limits())


def _read_description(originals: list[OriginalFile], language: str) -> Report:
    description = next(file for file in originals if file.role == OriginalFile.Role.REPORT)
    with description.file.open("rb") as handle:
        return read_description_file(handle.read(), description.original_name, language)


def _read_paper(originals: list[OriginalFile], language: str) -> Paper:
    paper = next(file for file in originals if file.role == OriginalFile.Role.REPORT)
    with paper.file.open("rb") as handle:
        return read_paper(handle.read(), paper.original_name, language)


def paper_report(paper: Paper, unit: str) -> tuple[Report, tuple[str, ...]]:
    """The paper as a talk project's report, a segment per sentence or per section, and each
    segment's section title. The ids say where a segment is in the paper ("s3.7": section 3,
    sentence 7)."""
    segments: list[Segment] = []
    sections: list[str] = []
    for number, section in enumerate(paper.sections, start=1):
        if unit == "sections":
            pieces = [(f"s{number}", section.sentences)] if section.sentences else []
        else:
            pieces = [
                (f"s{number}.{position}", (sentence,))
                for position, sentence in enumerate(section.sentences, start=1)
            ]
        for key, sentences in pieces:
            segments.append(
                Segment(key, " ".join(sentences), tuple(sentences), None, len(segments))
            )
            sections.append(section.title)
    if not segments:
        raise ReaderError(paper.source, "whole file", "the paper has no sentence")
    report = Report(segments=tuple(segments), source=paper.source, segmented_by=unit)
    return report, tuple(sections)


def _read_transcript(originals: list[OriginalFile], language: str) -> Transcript:
    parts = [file for file in originals if file.role == OriginalFile.Role.TRANSCRIPT]
    contents = []
    for part in parts:
        with part.file.open("rb") as handle:
            contents.append(handle.read())
    return read_transcript(contents, [part.original_name for part in parts], language)


@transaction.atomic
def _import_failed(job_id: int, document_id: int, error: str) -> None:
    job_fail(job_id=job_id, error=error)
    Document.objects.filter(pk=document_id).update(
        status=Document.Status.IMPORT_FAILED, import_error=error
    )


def _compact_json(items: Iterable[dict]) -> str:
    return json.dumps(list(items), ensure_ascii=False, separators=(",", ":"))
