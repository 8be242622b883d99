"""Reads for the editor, parameter sets and the aligners' settings. The editor's payload is
assembled from pre-serialised JSON text, since re-encoding 842 turns and ~145k words of text on
every load would dominate the request."""

import json
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any, TypedDict

from django.contrib.auth.models import User
from django.db.models import Exists, OuterRef, QuerySet

from backend.alignments.models import Annotation, ParameterSet, PreAlignment, ReadingPosition
from backend.core.errors import InvalidInput, NotFound
from backend.documents.models import Document, OriginalFile, ReportSegment, TranscriptTurn
from backend.documents.selectors import audio_path
from backend.projects.defaults import DEFAULT_LOW_CONFIDENCE
from backend.projects.models import Project
from backend.projects.selectors import no_such_parameter_set
from backend.projects.talks import is_talk, section_is_excluded
from workers.align.document_model import UNALIGNED
from workers.align.params import ALIGNERS, aligner_description, aligner_settings


class AnnotationState(TypedDict):
    """An annotation as the editor and a 409's `current` read it (`id` None, version 0,
    before the annotator's first write)."""

    id: int | None
    version: int
    annotator: int
    pre_alignment: int | None
    assignments: list[int]
    changed: list[bool]
    reviewed: list[bool]
    accepted_without_review: list[bool]
    seconds_spent: int
    submitted_at: str | None


class NamedAnnotationState(AnnotationState):
    username: str


class PreAlignmentView(TypedDict):
    id: int
    parameter_set: int | None
    engine_version: str
    computed_at: str
    params: dict[str, Any]
    labels: list[int]
    confidences: list[float]
    low_confidence_below: float
    warnings: list[dict[str, Any]]


class ReadingPlace(TypedDict):
    turn: int
    updated_at: str


class Listening(TypedDict):
    audio_url: str | None
    turn_words: list[list[list[Any]]]


class AlignerDescription(TypedDict):
    name: str
    description: str
    settings: list[dict[str, Any]]


_DOCUMENT_FIELDS = (
    "id",
    "project_id",
    "name",
    "source",
    "status",
    "iteration_id",
    "segment_count",
    "turn_count",
    "word_count",
)


def current_pre_alignment(*, document: Document) -> PreAlignment | None:
    return current_pre_alignments(document_ids=[document.pk]).get(document.pk)


def current_pre_alignments(*, document_ids: Sequence[int]) -> dict[int, PreAlignment]:
    """Per document that has one, its current proposal (`current_pre_alignment_ids`); two
    queries whatever the number of documents, and only the chosen rows' labels are read."""
    chosen = current_pre_alignment_ids(document_ids=document_ids)
    # By id: the model's ordering would only join the documents and projects tables.
    rows = PreAlignment.objects.order_by().in_bulk(list(chosen.values()))
    return {document_id: rows[pk] for document_id, pk in chosen.items()}


def current_pre_alignment_ids(*, document_ids: Sequence[int] | QuerySet) -> dict[int, int]:
    """Per document that has one, the id of the proposal under its project's promoted
    parameter set, else of its latest one: chosen on ids and dates alone. `document_ids`
    may be a query of ids, read as a subquery: one query for a project of any size."""
    latest: dict[int, int] = {}
    under_promoted: dict[int, int] = {}
    for pk, document_id, parameter_set_id, promoted_id in (
        PreAlignment.objects.filter(document_id__in=document_ids)
        .order_by("document_id", "-computed_at", "-id")
        .values_list(
            "pk", "document_id", "parameter_set_id", "document__project__promoted_parameter_set_id"
        )
    ):
        latest.setdefault(document_id, pk)
        if parameter_set_id is not None and parameter_set_id == promoted_id:
            under_promoted.setdefault(document_id, pk)
    return {**latest, **under_promoted}


def turns_read(annotation: Annotation) -> list[bool]:
    """Per turn, whether the annotator read it: visited, confirmed or changed it in the editor.
    Rows saved before reviewed turns were recorded hold none: their changed turns, at least,
    were read."""
    if len(annotation.reviewed) != len(annotation.changed):
        return [bool(changed) for changed in annotation.changed]
    return [
        bool(reviewed or changed)
        for reviewed, changed in zip(annotation.reviewed, annotation.changed, strict=True)
    ]


def caller_annotation(*, document: Document, annotator: User) -> Annotation | None:
    """One row at most (unique per document and annotator): without the model's ordering,
    which would join the documents, projects and users tables to a save's every lookup."""
    return Annotation.objects.filter(document=document, annotator=annotator).order_by().first()


def annotation_state(*, document: Document, annotator: User) -> AnnotationState:
    """The caller's annotation as the editor sees it; before their first write, a version 0
    copy of the current pre-alignment, so the editor never needs a second request."""
    annotation = caller_annotation(document=document, annotator=annotator)
    if annotation is not None:
        return _annotation_dict(annotation)
    return _unsaved_annotation(
        annotator, current_pre_alignment(document=document), document.turn_count
    )


def editor_payload_json(
    *, project_id: int, document_id: int, user: User, only_assigned: bool, may_review: bool
) -> str:
    """The document, the pre-alignment and the caller's annotation. A document assigned to
    others is not the caller's to annotate (`may_annotate` false); a lead or curator
    (`may_review`) then gets the assignees' annotations to read instead, and is the one who
    reads the pre-alignment's warnings (`pre_alignment_dict`)."""
    row = editor_document_row(
        project_id=project_id, document_id=document_id, user=user, only_assigned=only_assigned
    )
    pre_alignment = current_pre_alignments(document_ids=[row["id"]]).get(row["id"])
    annotation = Annotation.objects.filter(document_id=row["id"], annotator=user).first()
    annotation_data = (
        _annotation_dict(annotation)
        if annotation is not None
        else _unsaved_annotation(user, pre_alignment, row["turn_count"])
    )
    assignees = list(
        Document.assignees.through.objects.filter(document_id=row["id"])
        .order_by("user_id")
        .values_list("user_id", flat=True)
    )
    may_annotate = not assignees or user.pk in assignees
    iteration_closed = Document.objects.filter(
        pk=row["id"], iteration__closed_at__isnull=False
    ).exists()
    others = (
        Annotation.objects.filter(document_id=row["id"])
        .exclude(annotator=user)
        .select_related("annotator")
        .order_by("annotator__username", "pk")
        if may_review and not may_annotate
        else []
    )
    return document_payload_json(
        row,
        pre_alignment=(
            pre_alignment_dict(
                pre_alignment,
                low_confidence_below(row["project__settings"]),
                with_warnings=may_review,
            )
            if pre_alignment
            else None
        ),
        annotation=annotation_data,
        assignees=assignees,
        may_annotate=may_annotate,
        may_reopen=may_annotate and not iteration_closed,
        excluded_sections=_excluded_sections(row),
        position=reading_position(document_id=row["id"], user=user),
        annotations=[annotation_with_username(other) for other in others],
        **listening(row),
    )


def listening(row: dict[str, Any]) -> Listening:
    """What the editor plays a document's recording with (`audio_url`, null without one)
    and follows it by (`turn_words`, read only when there is a recording)."""
    if not row["has_audio"]:
        return {"audio_url": None, "turn_words": []}
    return {
        "audio_url": audio_path(project_id=row["project_id"], document_id=row["id"]),
        "turn_words": turn_words(document_id=row["id"]),
    }


def turn_words(*, document_id: int) -> list[list[list[Any]]]:
    """Per turn, its recognised words as `[text, start, end]` (to the centisecond), so the
    editor can follow playback word by word; empty when no turn has word times. Read only
    for a document with a recording: for the largest meeting this is most of the payload."""
    per_turn = [
        [[text, round(start, 2), round(end, 2)] for text, start, end, *_ in words]
        for words in TranscriptTurn.objects.filter(document_id=document_id)
        .order_by("position")
        .values_list("words", flat=True)
    ]
    return per_turn if any(per_turn) else []


def reading_position(*, document_id: int, user: User) -> ReadingPlace | None:
    """Where the user left off in this document's editor, on any device; None before."""
    position = ReadingPosition.objects.filter(document_id=document_id, user=user).first()
    if position is None:
        return None
    return {"turn": position.turn, "updated_at": position.updated_at.isoformat()}


def _excluded_sections(row: dict[str, Any]) -> list[str]:
    """The document's section titles that its talk project leaves out of the alignment."""
    project = Project(kind=row["project__kind"], settings=row["project__settings"])
    if not is_talk(project):
        return []
    titles = (
        ReportSegment.objects.filter(document_id=row["id"])
        .order_by("position")
        .values_list("section", flat=True)
    )
    return [title for title in dict.fromkeys(titles) if section_is_excluded(project, title)]


def editor_document_row(
    *, project_id: int, document_id: int, user: User | None, only_assigned: bool
) -> dict[str, Any]:
    """The columns an editor payload starts from, its texts as stored JSON."""
    documents = Document.objects.filter(project_id=project_id, pk=document_id)
    if only_assigned:
        documents = documents.filter(assignees=user)
    recording = OriginalFile.objects.filter(document=OuterRef("pk"), role=OriginalFile.Role.AUDIO)
    row = (
        documents.annotate(has_audio=Exists(recording))
        .values(
            *_DOCUMENT_FIELDS,
            "segments_json",
            "turns_json",
            "project__kind",
            "project__settings",
            "has_audio",
        )
        .first()
    )
    if row is None:
        raise NotFound(f"Project {project_id} has no document {document_id} you can see.")
    return row


def document_payload_json(row: dict[str, Any], **fields: Any) -> str:
    """`{"document", "segments", "turns", **fields}`: the texts are copied as stored, only
    `fields` are encoded."""
    head = {field.removesuffix("_id"): row[field] for field in _DOCUMENT_FIELDS}
    parts = ['{"document":', _dumps(head), ',"segments":', row["segments_json"]]
    parts += [',"turns":', row["turns_json"]]
    for name, value in fields.items():
        parts += [f',"{name}":', _dumps(value)]
    parts.append("}")
    return "".join(parts)


def annotation_with_username(annotation: Annotation) -> NamedAnnotationState:
    return {**_annotation_dict(annotation), "username": annotation.annotator.username}


def parameter_set_list(*, project_id: int) -> QuerySet[ParameterSet]:
    return ParameterSet.objects.filter(project_id=project_id)


def parameter_set_named(
    *, project_id: int, parameter_set_id: int, field: str = "parameter_set"
) -> ParameterSet:
    """The parameter set a request names in `field`; a 400 when the project has none by that
    id, the same whether the id is missing or another project's, so that other projects'
    ids cannot be told apart."""
    parameter_set = ParameterSet.objects.filter(pk=parameter_set_id, project_id=project_id).first()
    if parameter_set is None:
        raise InvalidInput(no_such_parameter_set(project_id, parameter_set_id), field=field)
    return parameter_set


def _unsaved_annotation(
    annotator: User, pre_alignment: PreAlignment | None, turn_count: int
) -> AnnotationState:
    labels = pre_alignment.labels if pre_alignment else [UNALIGNED] * turn_count
    return {
        "id": None,
        "version": 0,
        "annotator": annotator.pk,
        "pre_alignment": pre_alignment.pk if pre_alignment else None,
        "assignments": labels,
        "changed": [False] * len(labels),
        "reviewed": [],
        "accepted_without_review": [],
        "seconds_spent": 0,
        "submitted_at": None,
    }


def low_confidence_below(project_settings: dict[str, Any]) -> float:
    return float(project_settings.get("low_confidence_below", DEFAULT_LOW_CONFIDENCE))


def pre_alignment_dict(
    pre_alignment: PreAlignment, low_confidence: float, *, with_warnings: bool
) -> PreAlignmentView:
    """The editor's view of a pre-alignment, with the project's low-confidence threshold.
    Its warnings (a degenerate result: every turn on one segment, none aligned...) go to
    leads and curators only (`with_warnings`): what they advise (add documents, upload word
    vectors, change the language, pre-align again) is a lead's to do, and an annotator
    corrects the turns whatever the pre-alignment proposed."""
    return {
        "id": pre_alignment.pk,
        "parameter_set": pre_alignment.parameter_set_id,
        "engine_version": pre_alignment.engine_version,
        "computed_at": pre_alignment.computed_at.isoformat(),
        "params": pre_alignment.params,
        "labels": pre_alignment.labels,
        "confidences": pre_alignment.confidences,
        "low_confidence_below": low_confidence,
        "warnings": pre_alignment.warnings if with_warnings else [],
    }


def _annotation_dict(annotation: Annotation) -> AnnotationState:
    return {
        "id": annotation.pk,
        "version": annotation.version,
        "annotator": annotation.annotator_id,
        "pre_alignment": annotation.pre_alignment_id,
        "assignments": annotation.assignments,
        "changed": annotation.changed,
        "reviewed": annotation.reviewed,
        "accepted_without_review": annotation.accepted_without_review,
        "seconds_spent": annotation.seconds_spent,
        "submitted_at": annotation.submitted_at.isoformat() if annotation.submitted_at else None,
    }


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def aligner_list(*, aligner: str | None = None) -> list[AlignerDescription]:
    """Each aligner (or the one named) with every setting a parameter set for it may hold,
    read from the engine's declarations: what the API checks is what it describes."""
    return [
        {
            "name": name,
            "description": aligner_description(name),
            "settings": [
                {"key": f"{section}.{info.name}", "section": section, **asdict(info)}
                for section, info in aligner_settings(name)
            ],
        }
        for name in ALIGNERS
        if aligner in (None, name)
    ]
