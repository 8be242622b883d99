from collections.abc import Sequence

from django.db.models import Exists, OuterRef, Q, QuerySet

from backend.core.errors import InvalidInput, NotFound
from backend.documents.models import Document, ReportSegment, TranscriptTurn
from workers.align.model import Meeting, Report, Segment, Transcript, Turn


def document_list(
    *,
    project_id: int,
    user,
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
        documents = documents.filter(assignees=user.pk if assignee == "me" else _id(assignee))
    if search:
        documents = documents.filter(
            Q(name__icontains=search)
            | Exists(ReportSegment.objects.filter(document=OuterRef("pk"), text__icontains=search))
            | Exists(TranscriptTurn.objects.filter(document=OuterRef("pk"), text__icontains=search))
        )
    return documents.defer("segments_json", "turns_json").prefetch_related("assignees")


def document_get(*, project_id: int, document_id: int, user, only_assigned: bool) -> Document:
    documents = Document.objects.filter(project_id=project_id, pk=document_id)
    if only_assigned:
        documents = documents.filter(assignees=user)
    document = documents.defer("segments_json", "turns_json").first()
    if document is None:
        raise NotFound(f"Project {project_id} has no document {document_id} you can see.")
    return document


def _iteration_filter(iteration: str) -> dict:
    if iteration == "none":
        return {"iteration__isnull": True}
    return {"iteration_id": _id(iteration, field="iteration")}


def _id(value: str, field: str = "assignee") -> int:
    try:
        return int(value)
    except ValueError as error:
        raise InvalidInput(f"{field} must be an id, got {value!r}.", field=field) from error


def document_meeting(document: Document, reference=None) -> Meeting:
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
    )


def _reference_labels(reference, turn_count: int) -> tuple[int, ...] | None:
    if reference is None:
        return None
    labels: Sequence[int] = getattr(reference, "assignments", reference)
    if len(labels) != turn_count:
        raise InvalidInput(
            f"The reference has {len(labels)} labels for {turn_count} turns.", field="reference"
        )
    return tuple(int(label) for label in labels)
