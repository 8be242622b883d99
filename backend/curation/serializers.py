"""Output shapes of the adjudication endpoints."""

from rest_framework import serializers

from backend.alignments.serializers import (
    EditorDocumentSerializer,
    EditorPreAlignmentSerializer,
    EditorSegmentSerializer,
    EditorTurnSerializer,
    ListeningSerializer,
    NamedAnnotationSerializer,
)
from backend.curation.models import GoldRule, GoldState


class AdjudicationOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField(allow_null=True, help_text="Null until the first save.")
    version = serializers.IntegerField()
    curator = serializers.IntegerField(allow_null=True)
    sources = serializers.ListField(
        child=serializers.IntegerField(), help_text="The submitted annotations compared."
    )
    baseline = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="What it started from (the earliest counted submission); `reset` goes back.",
    )
    assignments = serializers.ListField(child=serializers.IntegerField())
    changed = serializers.ListField(
        child=serializers.BooleanField(), help_text="Per turn: differs from the baseline."
    )
    seconds_spent = serializers.IntegerField()
    completed_at = serializers.DateTimeField(
        allow_null=True, help_text="Set while it is the document's gold."
    )
    note = serializers.CharField()


class AdjudicationConflictSerializer(serializers.Serializer):
    detail = serializers.CharField()
    current = AdjudicationOutputSerializer(
        required=False, help_text="The adjudication as it now is, when the copy sent is stale."
    )


class NeedsAdjudicationOutputSerializer(serializers.Serializer):
    documents = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Ids of the documents whose counted submissions disagree, with no gold until "
        "a lead or curator adjudicates.",
    )


class GoldStateSerializer(serializers.Serializer):
    state = serializers.ChoiceField(choices=GoldState.choices)
    rule = serializers.ChoiceField(choices=GoldRule.choices, allow_null=True)
    waiting_for = serializers.ListField(
        child=serializers.IntegerField(), help_text="Assignees whose submission is missing."
    )


class AdjudicationPayloadSerializer(ListeningSerializer):
    """What `adjudication_payload_json` writes (as JSON text, like the editor's payload)."""

    document = EditorDocumentSerializer()
    segments = EditorSegmentSerializer(many=True)
    turns = EditorTurnSerializer(many=True)
    pre_alignment = EditorPreAlignmentSerializer(allow_null=True)
    annotations = NamedAnnotationSerializer(
        many=True, help_text="The submissions the gold rule counts, in submission order."
    )
    adjudication = AdjudicationOutputSerializer()
    gold = GoldStateSerializer()
    may_reopen = serializers.BooleanField(
        help_text="False once the document's iteration is closed: its gold is recorded and "
        "tuned on, so the adjudication can no longer be edited, completed or reopened."
    )
