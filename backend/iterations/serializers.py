"""Output shapes shared by the iteration endpoints (list, detail, and the actions that answer
with the iteration they changed)."""

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from backend.alignments.models import Annotation
from backend.alignments.serializers import AlignmentParamsSerializer
from backend.curation.models import GoldRule, GoldState
from backend.documents.models import Document
from backend.iterations.models import IterationStatus
from backend.iterations.selectors import RECORD_METRICS, BatchItem
from backend.jobs.models import Job
from backend.tuning.models import TuningRun
from backend.tuning.serializers import (
    CandidateOutputSerializer,
    LearnedResultSerializer,
    VerdictFieldsSerializer,
)


class JobBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Job.Status.choices)
    progress = serializers.FloatField()
    message = serializers.CharField()
    error = serializers.CharField()


class TuningBriefSerializer(VerdictFieldsSerializer):
    id = serializers.IntegerField()
    job = JobBriefSerializer()
    settings_count = serializers.IntegerField()
    ranked_by = serializers.ChoiceField(choices=TuningRun.RankedBy.choices)
    ranked_by_label = serializers.CharField(source="get_ranked_by_display")
    gold_documents = serializers.ListField(
        child=serializers.IntegerField(), source="gold_document_ids"
    )
    proposal = CandidateOutputSerializer(
        source="best",
        allow_null=True,
        help_text="The best candidate whose gain over the incumbent clears its bootstrap "
        "interval over the gold documents; when none does, the incumbent recalibrated "
        "(`proposal_recalibrates`) if the run fitted it a new learned decision; null while the "
        "run works, and otherwise (`proposal_reason` says why).",
    )
    incumbent = CandidateOutputSerializer(
        source="incumbent_candidate",
        allow_null=True,
        help_text="The parameters in use when the run started, as scored by it.",
    )
    incumbent_name = serializers.CharField()
    incumbent_note = serializers.CharField(help_text="Why the incumbent was not scored.")
    learned = LearnedResultSerializer(
        source="learned_summary",
        allow_null=True,
        help_text="What the run learned from the gold beyond its parameters: corrections and "
        "the calibrated confidence's score (null while it works, for other aligners, and when "
        "it refused to learn: `learning_refusal`).",
    )
    promoted_candidate = serializers.SerializerMethodField(
        help_text="The candidate whose settings the project now pre-aligns with, if any."
    )
    varied_settings = serializers.ListField(
        child=serializers.CharField(),
        help_text="Settings (section.name) whose value differs between the grid's candidates.",
    )

    def get_promoted_candidate(self, run: TuningRun) -> int | None:
        candidate = run.promoted_candidate
        return candidate.pk if candidate else None


class DoubleAnnotationOutputSerializer(serializers.Serializer):
    share = serializers.FloatField(allow_null=True)
    seed = serializers.IntegerField(allow_null=True)
    documents = serializers.ListField(child=serializers.IntegerField())
    annotators = serializers.ListField(child=serializers.IntegerField())


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


class IterationParametersSerializer(serializers.Serializer):
    """A copy of the parameter set the batch was pre-aligned with, kept if the set goes."""

    name = serializers.CharField(required=False)
    params = AlignmentParamsSerializer(required=False)


class CorpusCountsSerializer(serializers.Serializer):
    gold_documents = serializers.IntegerField()
    gold_pairs = serializers.IntegerField()
    automatic_documents = serializers.IntegerField()
    trusted_pairs = serializers.IntegerField()


@extend_schema_field(CorpusCountsSerializer(allow_null=True))
class CorpusAtCloseField(serializers.Field):
    """The corpus counts when the iteration closed; null before (stored as `{}`)."""

    def __init__(self, **options: Any) -> None:
        super().__init__(read_only=True, **options)

    def to_representation(self, value: dict[str, int]) -> dict[str, int] | None:
        return value or None


class IterationOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.ChoiceField(choices=IterationStatus.choices)
    document_count = serializers.IntegerField()
    parameter_set = serializers.IntegerField(source="parameter_set_id", allow_null=True)
    parameters = IterationParametersSerializer()
    pre_align_job = JobBriefSerializer(allow_null=True)
    double_annotation = DoubleAnnotationOutputSerializer(allow_null=True, source="double_or_none")
    tuning = TuningBriefSerializer(source="tuning_run", allow_null=True)
    promoted_parameter_set = serializers.IntegerField(
        source="promoted_parameter_set_id", allow_null=True
    )
    corpus_at_close = CorpusAtCloseField()
    created_at = serializers.DateTimeField()
    closed_at = serializers.DateTimeField(allow_null=True)
    cancelled_at = serializers.DateTimeField(allow_null=True)
    cancelled_documents = serializers.ListField(
        child=serializers.IntegerField(), help_text="The documents its cancellation freed."
    )
    review_threshold = serializers.FloatField(
        allow_null=True,
        help_text="The editor's review mode shows turns less confident than this; null: auto.",
    )


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
    windowdiff = serializers.FloatField(
        allow_null=True, help_text="Percent; null where undefined (the window rounds to 0)."
    )
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

    def get_turns_changed(self, annotation: Annotation) -> int:
        return sum(annotation.changed)


class BatchGoldSerializer(serializers.Serializer):
    state = serializers.ChoiceField(choices=GoldState.choices)
    rule = serializers.ChoiceField(choices=GoldRule.choices, allow_null=True)


class BatchDocumentSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="document.pk")
    name = serializers.CharField(source="document.name")
    status = serializers.ChoiceField(source="document.status", choices=Document.Status.choices)
    turn_count = serializers.IntegerField(source="document.turn_count")
    assignees = serializers.SerializerMethodField()
    pre_alignment = serializers.IntegerField(allow_null=True)
    annotations = BatchAnnotationSerializer(many=True)
    record = RecordSerializer(allow_null=True)
    gold = BatchGoldSerializer(help_text="The document's gold (backend.curation.rule), or why not.")

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_assignees(self, item: BatchItem) -> list[int]:
        return [user.pk for user in item["document"].assignees.all()]


class IterationDetailSerializer(IterationOutputSerializer):
    accuracy = AccuracySerializer()
    documents = BatchDocumentSerializer(source="batch", many=True)
