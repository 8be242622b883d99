"""Output shapes shared by the iteration endpoints (list, detail, and the actions that answer
with the iteration they changed)."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from backend.iterations.models import IterationStatus
from backend.iterations.selectors import RECORD_METRICS
from backend.tuning.serializers import CandidateOutputSerializer


class JobBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.CharField()
    progress = serializers.FloatField()
    message = serializers.CharField()
    error = serializers.CharField()


class TuningBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    job = JobBriefSerializer()
    settings_count = serializers.IntegerField()
    ranked_by = serializers.CharField()
    ranked_by_label = serializers.CharField(source="get_ranked_by_display")
    gold_documents = serializers.ListField(
        child=serializers.IntegerField(), source="gold_document_ids"
    )
    proposal = CandidateOutputSerializer(source="best", allow_null=True)


class DistributionSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    mean = serializers.FloatField(allow_null=True)
    median = serializers.FloatField(allow_null=True)
    min = serializers.FloatField(allow_null=True)
    q1 = serializers.FloatField(allow_null=True)
    q3 = serializers.FloatField(allow_null=True)
    max = serializers.FloatField(allow_null=True)


AccuracySerializer = type(
    "AccuracySummarySerializer",
    (serializers.Serializer,),
    {metric: DistributionSerializer() for metric in RECORD_METRICS},
)


class IterationOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.ChoiceField(choices=IterationStatus.choices)
    document_count = serializers.IntegerField()
    parameter_set = serializers.IntegerField(source="parameter_set_id", allow_null=True)
    parameters = serializers.JSONField()
    pre_align_job = JobBriefSerializer(allow_null=True)
    tuning = TuningBriefSerializer(source="tuning_run", allow_null=True)
    promoted_parameter_set = serializers.IntegerField(
        source="promoted_parameter_set_id", allow_null=True
    )
    corpus_at_close = serializers.JSONField()
    created_at = serializers.DateTimeField()
    closed_at = serializers.DateTimeField(allow_null=True)


class RecordSerializer(serializers.Serializer):
    annotator = serializers.IntegerField(source="annotator_id", allow_null=True)
    turns = serializers.IntegerField()
    words = serializers.IntegerField()
    unchanged_turns = serializers.IntegerField()
    unchanged_words = serializers.IntegerField()
    human_turn_accuracy = serializers.FloatField()
    human_word_accuracy = serializers.FloatField()
    segment_accuracy = serializers.FloatField()
    word_accuracy = serializers.FloatField()
    windowdiff = serializers.FloatField()
    seconds_spent = serializers.IntegerField()


class RecordDetailSerializer(RecordSerializer):
    document = serializers.IntegerField(source="document_id")
    document_name = serializers.CharField(source="document.name")
    pre_alignment = serializers.IntegerField(source="pre_alignment_id", allow_null=True)
    pre_alignment_labels = serializers.ListField(child=serializers.IntegerField())
    gold_labels = serializers.ListField(child=serializers.IntegerField())
    recorded_at = serializers.DateTimeField()


class BatchAnnotationSerializer(serializers.Serializer):
    annotator = serializers.IntegerField(source="annotator_id")
    version = serializers.IntegerField()
    turns_changed = serializers.SerializerMethodField()
    seconds_spent = serializers.IntegerField()
    submitted_at = serializers.DateTimeField(allow_null=True)

    def get_turns_changed(self, annotation) -> int:
        return sum(annotation.changed)


class BatchDocumentSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="document.pk")
    name = serializers.CharField(source="document.name")
    status = serializers.CharField(source="document.status")
    turn_count = serializers.IntegerField(source="document.turn_count")
    assignees = serializers.SerializerMethodField()
    pre_alignment = serializers.IntegerField(allow_null=True)
    annotations = BatchAnnotationSerializer(many=True)
    record = RecordSerializer(allow_null=True)

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_assignees(self, item) -> list[int]:
        return [user.pk for user in item["document"].assignees.all()]


class IterationDetailSerializer(IterationOutputSerializer):
    accuracy = AccuracySerializer()
    documents = BatchDocumentSerializer(source="batch", many=True)
