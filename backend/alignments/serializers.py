"""Output shapes of the alignment endpoints: the editor's payload, annotations, and the
alignment parameters that parameter sets, pre-alignments, iterations and tuning candidates
carry."""

import dataclasses

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from backend.core.serializers import StoredListField, dataclass_serializer
from backend.documents.models import Document
from backend.documents.serializers import ReadingPositionSerializer
from workers.align.diagnosis import CODES
from workers.align.params import ALIGNERS, SHARED
from workers.align.setting_fields import SETTING_KINDS

AlignmentParamsSerializer = type(
    "AlignmentParamsSerializer",
    (serializers.Serializer,),
    {
        "__doc__": """The engine's `AlignmentParams` as stored JSON: the aligner, its own
        section and the shared ones, each section the engine's dataclass. No field is
        required: a parameter set that records an imported alignment holds only where it came
        from (`source`).""",
        "aligner": serializers.ChoiceField(choices=list(ALIGNERS), required=False),
        **{
            section: dataclass_serializer(kind, required=False)(
                required=False,
                help_text=f"Only with aligner {section}." if section in ALIGNERS else "",
            )
            for section, kind in {**ALIGNERS, **SHARED}.items()
            if dataclasses.fields(kind)
        },
        "source": serializers.CharField(
            required=False, help_text="Where an imported alignment came from, instead of settings."
        ),
        "Meta": type("Meta", (), {"ref_name": "AlignmentParams"}),
    },
)


class AnnotationOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField(
        allow_null=True, help_text="Null until the annotator's first save (version 0)."
    )
    version = serializers.IntegerField()
    annotator = serializers.IntegerField(source="annotator_id")
    pre_alignment = serializers.IntegerField(source="pre_alignment_id", allow_null=True)
    assignments = StoredListField(child=serializers.IntegerField())
    changed = StoredListField(child=serializers.BooleanField())
    reviewed = StoredListField(
        child=serializers.BooleanField(),
        help_text="Per turn: visited, confirmed or changed in the editor; empty when none.",
    )
    accepted_without_review = StoredListField(
        child=serializers.BooleanField(),
        help_text='Per turn: accepted unread with the review mode\'s "accept the rest"; '
        "empty when none.",
    )
    seconds_spent = serializers.IntegerField()
    submitted_at = serializers.DateTimeField(allow_null=True)


class NamedAnnotationSerializer(AnnotationOutputSerializer):
    """Someone's annotation as a lead or curator reads it: with whose it is."""

    username = serializers.CharField()


class AnnotationConflictSerializer(serializers.Serializer):
    detail = serializers.CharField()
    current = AnnotationOutputSerializer(
        required=False, help_text="The annotation as it now is, when the copy sent is stale."
    )


class EditorDocumentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    project = serializers.IntegerField()
    name = serializers.CharField()
    source = serializers.CharField()  # type: ignore[assignment]  # DRF's Field.source, shadowed
    status = serializers.ChoiceField(choices=Document.Status.choices)
    iteration = serializers.IntegerField(allow_null=True)
    segment_count = serializers.IntegerField()
    turn_count = serializers.IntegerField()
    word_count = serializers.IntegerField()


class EditorSegmentSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    key = serializers.CharField()
    speaker = serializers.CharField()
    section = serializers.CharField(
        required=False,
        help_text="The paper's section title in a talk project; empty in a meeting project "
        "(absent from documents imported before sections were kept).",
    )
    text = serializers.CharField()
    word_count = serializers.IntegerField()


class EditorTurnSerializer(EditorSegmentSerializer):
    section = None  # type: ignore[assignment]  # turns belong to no section
    start = serializers.FloatField(allow_null=True, help_text="Seconds into the recording.")
    end = serializers.FloatField(allow_null=True)


class PreAlignmentWarningSerializer(serializers.Serializer):
    """A degenerate pre-alignment, said (`workers.align.diagnosis.Finding`)."""

    code = serializers.ChoiceField(choices=list(CODES), help_text="Stable, for programs.")
    message = serializers.CharField(help_text="What happened.")
    cause = serializers.CharField(help_text="Its likely cause.")
    do = serializers.CharField(help_text="What to do about it.")


class EditorPreAlignmentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    parameter_set = serializers.IntegerField(allow_null=True)
    engine_version = serializers.CharField()
    computed_at = serializers.DateTimeField()
    params = AlignmentParamsSerializer()
    labels = serializers.ListField(
        child=serializers.IntegerField(), help_text="Per turn: a segment position, or -1."
    )
    confidences = serializers.ListField(
        child=serializers.FloatField(), help_text="Per turn; empty when the source gave none."
    )
    low_confidence_below = serializers.FloatField(
        help_text="The project's threshold: the editor marks a turn less confident than this."
    )
    warnings = PreAlignmentWarningSerializer(
        many=True,
        help_text="What the engine found degenerate in this pre-alignment; for leads and "
        "curators only (always empty for annotators).",
    )


@extend_schema_field(
    {
        "type": "array",
        "items": {"anyOf": [{"type": "string"}, {"type": "number"}]},
        "minItems": 3,
        "maxItems": 3,
        "description": "[text, start, end]: a recognised word and its times in seconds.",
    }
)
class TimedWordField(serializers.JSONField):
    """A recognised word with its times, as a triple to keep the payload small."""


class ListeningSerializer(serializers.Serializer):
    """The recording's part of a payload the editor shows (`listening()`)."""

    audio_url = serializers.CharField(
        allow_null=True,
        help_text="Where the document's recording streams from (HTTP ranges); null without one.",
    )
    turn_words = serializers.ListField(
        child=serializers.ListField(child=TimedWordField()),
        help_text="Per turn, its words with their times, for following playback word by word; "
        "empty when the document has no recording or its transcript no word times.",
    )


class EditorPayloadSerializer(ListeningSerializer):
    """What `editor_payload_json` writes (as JSON text, for speed); the API tests validate
    real payloads against this schema."""

    document = EditorDocumentSerializer()
    segments = EditorSegmentSerializer(many=True)
    turns = EditorTurnSerializer(many=True)
    pre_alignment = EditorPreAlignmentSerializer(allow_null=True)
    annotation = AnnotationOutputSerializer()
    assignees = serializers.ListField(child=serializers.IntegerField())
    may_annotate = serializers.BooleanField(
        help_text="False when the document is assigned to others: the caller only reads it."
    )
    position = ReadingPositionSerializer(
        allow_null=True, help_text="Where the caller left off in this editor, on any device."
    )
    may_reopen = serializers.BooleanField(
        help_text="False once the document's iteration is closed: its gold is recorded."
    )
    annotations = NamedAnnotationSerializer(
        many=True,
        help_text="For a lead or curator who is not assigned: the assignees' annotations.",
    )
    excluded_sections = serializers.ListField(
        child=serializers.CharField(),
        help_text="A talk project's section titles, among this document's, that the "
        "alignment leaves out (shown greyed); empty for a meeting project.",
    )


@extend_schema_field(
    {"anyOf": [{"type": kind, "nullable": True} for kind in ("number", "boolean", "string")]}
)
class SettingValueField(serializers.JSONField):
    """A setting's value: a number, a boolean, one of its choices, or null."""


class AlignerSettingOutputSerializer(serializers.Serializer):
    key = serializers.CharField(help_text="How a grid or `with_changes` names it: section.name.")
    section = serializers.CharField(help_text="The aligner's own section or a shared one.")
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=list(SETTING_KINDS))
    nullable = serializers.BooleanField()
    choices = serializers.ListField(child=serializers.CharField())
    default = SettingValueField()
    description = serializers.CharField()


class AlignerOutputSerializer(serializers.Serializer):
    name = serializers.ChoiceField(choices=list(ALIGNERS))
    description = serializers.CharField()
    settings = AlignerSettingOutputSerializer(many=True)
