"""Reads for the editor. Its payload is assembled from pre-serialised JSON text, since
re-encoding 842 turns and ~145k words of text on every load would dominate the request."""

import json
from typing import Any

from django.db.models import QuerySet

from backend.alignments.models import Annotation, ParameterSet, PreAlignment
from backend.core.errors import NotFound
from backend.documents.models import Document
from workers.align.model import UNALIGNED

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


def latest_submissions(*, document_id: int) -> QuerySet[Annotation]:
    """A document's submitted annotations, latest first: the first is its gold wherever Tandem
    needs one (closing an iteration, tuning, exports), when several annotators corrected it."""
    return Annotation.objects.filter(document_id=document_id, submitted_at__isnull=False).order_by(
        "-submitted_at", "-id"
    )


def current_pre_alignment(*, document: Document) -> PreAlignment | None:
    """The proposal under the project's promoted parameter set, else the latest one."""
    promoted = (
        Document.objects.filter(pk=document.pk)
        .values_list("project__promoted_parameter_set_id", flat=True)
        .first()
    )
    return _chosen_pre_alignment(document.pk, promoted)


def annotation_state(*, document: Document, annotator) -> dict[str, Any]:
    """The caller's annotation as the editor sees it; before their first write, a version 0
    copy of the current pre-alignment, so the editor never needs a second request."""
    annotation = Annotation.objects.filter(document=document, annotator=annotator).first()
    if annotation is not None:
        return _annotation_dict(annotation)
    return _unsaved_annotation(
        annotator, current_pre_alignment(document=document), document.turn_count
    )


def editor_payload_json(*, project_id: int, document_id: int, user, only_assigned: bool) -> str:
    documents = Document.objects.filter(project_id=project_id, pk=document_id)
    if only_assigned:
        documents = documents.filter(assignees=user)
    row = documents.values(
        *_DOCUMENT_FIELDS, "segments_json", "turns_json", "project__promoted_parameter_set_id"
    ).first()
    if row is None:
        raise NotFound(f"Project {project_id} has no document {document_id} you can see.")
    pre_alignment = _chosen_pre_alignment(row["id"], row["project__promoted_parameter_set_id"])
    annotation = Annotation.objects.filter(document_id=row["id"], annotator=user).first()
    annotation_data = (
        _annotation_dict(annotation)
        if annotation is not None
        else _unsaved_annotation(user, pre_alignment, row["turn_count"])
    )
    head = {field.removesuffix("_id"): row[field] for field in _DOCUMENT_FIELDS}
    return "".join(
        [
            '{"document":',
            _dumps(head),
            ',"segments":',
            row["segments_json"],
            ',"turns":',
            row["turns_json"],
            ',"pre_alignment":',
            _dumps(_pre_alignment_dict(pre_alignment) if pre_alignment else None),
            ',"annotation":',
            _dumps(annotation_data),
            "}",
        ]
    )


def parameter_set_list(*, project_id: int) -> QuerySet[ParameterSet]:
    return ParameterSet.objects.filter(project_id=project_id)


def _chosen_pre_alignment(document_id: int, promoted_id: int | None) -> PreAlignment | None:
    pre_alignments = PreAlignment.objects.filter(document_id=document_id)
    if promoted_id is not None:
        chosen = pre_alignments.filter(parameter_set_id=promoted_id).first()
        if chosen is not None:
            return chosen
    return pre_alignments.order_by("-computed_at", "-id").first()


def _unsaved_annotation(
    annotator, pre_alignment: PreAlignment | None, turn_count: int
) -> dict[str, Any]:
    labels = pre_alignment.labels if pre_alignment else [UNALIGNED] * turn_count
    return {
        "id": None,
        "version": 0,
        "annotator": annotator.pk,
        "pre_alignment": pre_alignment.pk if pre_alignment else None,
        "assignments": labels,
        "changed": [False] * len(labels),
        "seconds_spent": 0,
        "submitted_at": None,
    }


def _pre_alignment_dict(pre_alignment: PreAlignment) -> dict[str, Any]:
    return {
        "id": pre_alignment.pk,
        "parameter_set": pre_alignment.parameter_set_id,
        "engine_version": pre_alignment.engine_version,
        "computed_at": pre_alignment.computed_at.isoformat(),
        "params": pre_alignment.params,
        "labels": pre_alignment.labels,
        "confidences": pre_alignment.confidences,
    }


def _annotation_dict(annotation: Annotation) -> dict[str, Any]:
    return {
        "id": annotation.pk,
        "version": annotation.version,
        "annotator": annotation.annotator_id,
        "pre_alignment": annotation.pre_alignment_id,
        "assignments": annotation.assignments,
        "changed": annotation.changed,
        "seconds_spent": annotation.seconds_spent,
        "submitted_at": annotation.submitted_at.isoformat() if annotation.submitted_at else None,
    }


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
