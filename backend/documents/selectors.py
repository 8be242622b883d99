from collections.abc import Sequence
from typing import Any

import numpy as np
from django.contrib.auth.models import User
from django.db.models import Exists, F, FilteredRelation, OuterRef, Prefetch, Q, QuerySet
from django.urls import reverse

from backend.core.errors import InvalidInput, NotFound
from backend.core.ids import parse_id
from backend.documents.models import Document, OriginalFile, ReportSegment, TranscriptTurn
from backend.projects.models import Project
from backend.projects.talks import is_talk, section_is_excluded
from workers.align.document_model import Meeting, Report, Segment, Transcript, Turn


def document_list(
    *,
    project_id: int,
    user: User,
    only_assigned: bool,
    statuses: list[str] | None = None,
    iteration: str | None = None,
    assignee: str | None = None,
    search: str | None = None,
) -> QuerySet[Document]:
    """`iteration` is an id or `none`; `assignee` a user id or `me`; `search` matches the
    name or any segment or turn text."""
    documents = Document.objects.filter(project_id=project_id)
    if only_assigned:
        documents = documents.filter(assignees=user)
    if statuses:
        unknown = sorted(set(statuses) - set(Document.Status.values))
        if unknown:
            raise InvalidInput(
                f"Unknown status {unknown[0]!r}; use one of {', '.join(Document.Status.values)}.",
                field="status",
            )
        documents = documents.filter(status__in=statuses)
    if iteration:
        documents = documents.filter(**_iteration_filter(iteration))
    if assignee:
        documents = documents.filter(
            assignees=user.pk if assignee == "me" else parse_id(assignee, field="assignee")
        )
    if search:
        documents = documents.filter(
            Q(name__icontains=search)
            | Exists(ReportSegment.objects.filter(document=OuterRef("pk"), text__icontains=search))
            | Exists(TranscriptTurn.objects.filter(document=OuterRef("pk"), text__icontains=search))
        )
    return with_callers_annotation(
        with_recording(documents.defer("segments_json", "turns_json")).prefetch_related(
            "assignees"
        ),
        user,
    )


def document_get(*, project_id: int, document_id: int, user: User, only_assigned: bool) -> Document:
    """The document as its pages show it: with its recording and the caller's annotation."""
    documents = _visible_document(project_id, document_id, user, only_assigned)
    return _found(
        with_callers_annotation(with_recording(documents), user).first(), project_id, document_id
    )


def document_get_for_write(
    *, project_id: int, document_id: int, user: User, only_assigned: bool
) -> Document:
    """The document an edit is written to, with its project and iteration in the same query:
    a save is the editor's most frequent request, and the prefetches `document_get` adds
    for pages cost it a third of its queries."""
    documents = _visible_document(project_id, document_id, user, only_assigned)
    return _found(documents.select_related("project", "iteration").first(), project_id, document_id)


def _visible_document(
    project_id: int, document_id: int, user: User, only_assigned: bool
) -> QuerySet[Document]:
    documents = Document.objects.filter(project_id=project_id, pk=document_id)
    if only_assigned:
        documents = documents.filter(assignees=user)
    # One row at most: the model's ordering (by project name) would join the projects table
    # to every such query and cost its compilation a third of a save's ORM time.
    return documents.defer("segments_json", "turns_json").order_by()


def _found(document: Document | None, project_id: int, document_id: int) -> Document:
    if document is None:
        raise NotFound(f"Project {project_id} has no document {document_id} you can see.")
    return document


def documents_by_ids(
    *, project_id: int, document_ids: Sequence[int], field: str = "documents"
) -> list[Document]:
    """The project's documents in the order given, duplicates dropped, without their content
    (loaded when read); a 400 on `field` naming every id the project does not have."""
    found = {
        document.pk: document
        for document in Document.objects.filter(project_id=project_id, pk__in=document_ids).defer(
            "segments_json", "turns_json"
        )
    }
    missing = sorted(set(document_ids) - set(found))
    if missing:
        raise InvalidInput(missing_documents(project_id, missing), field=field)
    return [found[pk] for pk in dict.fromkeys(document_ids)]


def documents_in_iteration(*, project_id: int, iteration_id: int) -> list[Document]:
    """An iteration's batch by id, without content; empty when the project has no such one."""
    documents = Document.objects.filter(project_id=project_id, iteration_id=iteration_id)
    return list(documents.order_by("pk").defer("segments_json", "turns_json"))


def missing_documents(project_id: int, missing: Sequence[int]) -> str:
    """'Project 3 has no document 7.', or '... no documents 7, 8 and 9.'"""
    if len(missing) == 1:
        return f"Project {project_id} has no document {missing[0]}."
    listed = ", ".join(str(pk) for pk in missing[:-1])
    return f"Project {project_id} has no documents {listed} and {missing[-1]}."


def with_recording(documents: QuerySet[Document]) -> QuerySet[Document]:
    """Each document's `recordings`: its audio file's row, or none."""
    return documents.prefetch_related(
        Prefetch(
            "files",
            queryset=OriginalFile.objects.filter(role=OriginalFile.Role.AUDIO).defer("sha256"),
            to_attr="recordings",
        )
    )


def with_callers_annotation(documents: QuerySet[Document], user: User) -> QuerySet[Document]:
    """Each document's `my_annotation_version`, `my_annotation_submitted_at`,
    `my_position_turn` and `my_position_updated_at` (None when the caller has none): an
    annotator's list says where *they* are, not whether anyone submitted, and where they left
    off on the server, so that any browser shows it. Read through the relations that the
    alignments' models declare to a document (one annotation and one reading position per
    document and person), so that documents import nothing above them."""
    return documents.annotate(
        callers_annotation=FilteredRelation(
            "annotations", condition=Q(annotations__annotator_id=user.pk)
        ),
        callers_position=FilteredRelation(
            "reading_positions", condition=Q(reading_positions__user_id=user.pk)
        ),
        my_annotation_version=F("callers_annotation__version"),
        my_annotation_submitted_at=F("callers_annotation__submitted_at"),
        my_position_turn=F("callers_position__turn"),
        my_position_updated_at=F("callers_position__updated_at"),
    )


def _iteration_filter(iteration: str) -> dict:
    if iteration == "none":
        return {"iteration__isnull": True}
    return {"iteration_id": parse_id(iteration, field="iteration")}


def kept_segments(document: Document) -> np.ndarray | None:
    """Positions of the segments outside a talk project's excluded sections, in order; None
    for a meeting project, whose every segment is a candidate."""
    project = document.project
    if not is_talk(project):
        return None
    sections = ReportSegment.objects.filter(document=document).order_by("position")
    return np.array(
        [
            position
            for position, section in enumerate(sections.values_list("section", flat=True))
            if not section_is_excluded(project, section)
        ],
        dtype=np.int64,
    )


def document_meeting(document: Document, reference: Any = None) -> Meeting:
    """The document as the alignment engine reads it. `reference` (a submitted Annotation, or
    per-turn labels) becomes the meeting's reference labels, which tuning scores against.

    The meeting id is `document:<pk>`, so tuning results name the document they came from.
    Word timings are left out: the engine does not read them, and they are the bulk of a turn.
    """
    segments = tuple(
        Segment(row["key"], row["text"], tuple(row["sentences"]), row["speaker"] or None, index)
        for index, row in enumerate(
            ReportSegment.objects.filter(document=document)
            .order_by("position")
            .values("key", "text", "sentences", "speaker")
        )
    )
    turns = tuple(
        Turn(
            row["key"],
            row["text"],
            tuple(row["sentences"]),
            row["speaker"] or None,
            row["start"],
            row["end"],
            index,
        )
        for index, row in enumerate(
            TranscriptTurn.objects.filter(document=document)
            .order_by("position")
            .values("key", "text", "sentences", "speaker", "start", "end")
        )
    )
    labels = _reference_labels(reference, len(turns))
    return Meeting(
        id=f"document:{document.pk}",
        report=Report(segments=segments, source=document.source or document.name),
        transcript=Transcript(turns=turns, source=document.source or document.name),
        reference=labels,
        initial=None,
        language=Project.objects.values_list("language", flat=True).get(pk=document.project_id),
    )


def _reference_labels(reference: Any, turn_count: int) -> tuple[int, ...] | None:
    if reference is None:
        return None
    labels: Sequence[int] = getattr(reference, "assignments", reference)
    if len(labels) != turn_count:
        raise InvalidInput(
            f"The reference has {len(labels)} labels for {turn_count} turns.", field="reference"
        )
    return tuple(int(label) for label in labels)


def audio_path(*, project_id: int, document_id: int) -> str:
    """Where a document's recording is streamed from (`DocumentAudioApi`)."""
    return reverse("document-audio", kwargs={"project_id": project_id, "document_id": document_id})


def document_audio(*, document: Document) -> OriginalFile:
    """The document's recording; 404 saying so when it has none."""
    recording = OriginalFile.objects.filter(document=document, role=OriginalFile.Role.AUDIO).first()
    if recording is None:
        raise NotFound(f"Document {document.pk} has no recording; a lead may add one.")
    return recording
