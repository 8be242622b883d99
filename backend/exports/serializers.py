"""Output shapes of the export endpoints: the preview's counts and the public_meetings
layout (`formats.public_meetings`), so a client generated from the schema reads both."""

from rest_framework import serializers

from backend.agreement.serializers import CorpusAgreementSerializer
from backend.alignments.serializers import AlignmentParamsSerializer
from backend.core.serializers import KeyedSerializer, dataclass_serializer
from backend.ratings.serializers import StudyEstimateSerializer
from backend.salience.serializers import SalienceSummarySerializer
from workers.align.pairs.options import ExportOptions
from workers.align.pairs.shape import FILTERS
from workers.align.pairs.split import SPLITS


class OriginCountsSerializer(serializers.Serializer):
    total = serializers.IntegerField()
    gold = serializers.IntegerField()
    automatic = serializers.IntegerField()


class FilterStepSerializer(serializers.Serializer):
    filter = serializers.ChoiceField(choices=FILTERS)
    value = serializers.FloatField()
    removed = serializers.IntegerField(help_text="Pairs this filter removed.")
    kept = serializers.IntegerField(help_text="Pairs left after it and the filters before.")


class SplitCountsSerializer(serializers.Serializer):
    meetings = serializers.IntegerField()
    pairs = serializers.IntegerField()


ExportSplitsSerializer = type(
    "ExportSplitsSerializer",
    (serializers.Serializer,),
    {split: SplitCountsSerializer() for split in SPLITS},
)


class ExportPreviewSerializer(serializers.Serializer):
    documents = OriginCountsSerializer()
    pairs_before_filters = OriginCountsSerializer()
    filters = FilterStepSerializer(many=True)
    pairs = OriginCountsSerializer()
    splits = ExportSplitsSerializer()
    agreement = CorpusAgreementSerializer()
    rating = StudyEstimateSerializer(
        allow_null=True,
        help_text="The latest rating study's estimated share of good automatic pairs at this "
        "min_confidence; null when no study has rated any.",
    )
    salience = SalienceSummarySerializer(
        allow_null=True,
        help_text="Podcast projects: the units and how many the ROUGE rule labels salient "
        "(salience.jsonl); null for other projects.",
    )
    options = dataclass_serializer(ExportOptions)()


class PublicMeetingsSegmentSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="`0_<position>_0`")
    key = serializers.CharField()
    text = serializers.CharField()
    speaker = serializers.CharField()
    validated = serializers.BooleanField()


class PublicMeetingsTurnSerializer(PublicMeetingsSegmentSerializer):
    start = serializers.FloatField(allow_null=True)
    end = serializers.FloatField(allow_null=True)
    aligned = serializers.CharField(help_text="The segment's id, or empty when unaligned.")
    confidence = serializers.FloatField(required=False, help_text="Initial side only.")
    accepted_without_review = serializers.BooleanField(
        required=False,
        help_text="Final side only: its annotators accepted the turn unread in the editor's "
        "review mode.",
    )


class PublicMeetingsSideSerializer(serializers.Serializer):
    doc = PublicMeetingsSegmentSerializer(many=True)
    ctm = PublicMeetingsTurnSerializer(many=True)


class PublicMeetingsProvenanceSerializer(serializers.Serializer):
    parameter_set = serializers.CharField(allow_null=True)
    params = AlignmentParamsSerializer()
    engine_version = serializers.CharField()


class PublicMeetingsTandemSerializer(serializers.Serializer):
    name = serializers.CharField()
    source = serializers.CharField()  # type: ignore[assignment]  # DRF's Field.source, shadowed
    iteration = serializers.IntegerField(allow_null=True)
    pre_alignment = PublicMeetingsProvenanceSerializer(allow_null=True)


class PublicMeetingsEntrySerializer(serializers.Serializer):
    initial = PublicMeetingsSideSerializer(help_text="The current pre-alignment.")
    final = PublicMeetingsSideSerializer(required=False, help_text="The gold, when there is.")
    tandem = PublicMeetingsTandemSerializer()


class PublicMeetingsExportSerializer(KeyedSerializer):
    """Meeting key (the package's hash, or `document-<id>`) to its entry."""

    child_class = PublicMeetingsEntrySerializer
