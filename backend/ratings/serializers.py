"""Shapes of the rating endpoints. A rater's payload has no confidence and no origin field at
all, so no client can show them by mistake."""

from rest_framework import serializers

from backend.core.ids import COUNT_MAX
from backend.core.serializers import CountField, IdField
from backend.ratings.models import Answer
from backend.ratings.services import DEFAULT_BINS


class StudyCreateInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    sample_size = CountField(min_value=1, max_value=10_000, help_text="Automatic pairs.")
    controls = CountField(default=0, max_value=10_000, help_text="Gold pairs mixed in.")
    raters = serializers.ListField(
        child=IdField(), min_length=1, max_length=100, help_text="User ids of project members."
    )
    raters_per_pair = CountField(min_value=1, max_value=100)
    target_yes_share = serializers.FloatField(default=0.9, min_value=0.0, max_value=1.0)
    bins = CountField(default=DEFAULT_BINS, min_value=1, max_value=20)
    seed = serializers.IntegerField(
        required=False, min_value=0, max_value=COUNT_MAX, help_text="Drawn when omitted."
    )


class StudyBinSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    low = serializers.FloatField()
    high = serializers.FloatField()
    population = serializers.IntegerField(help_text="Automatic pairs of the corpus in the bin.")


class StudyOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    seed = serializers.IntegerField()
    sample_size = serializers.IntegerField()
    controls = serializers.IntegerField()
    raters_per_pair = serializers.IntegerField()
    target_yes_share = serializers.FloatField()
    bins = StudyBinSerializer(many=True)
    items = serializers.IntegerField(source="item_count")
    assignments = serializers.IntegerField(source="assignment_count")
    ratings = serializers.IntegerField(source="rating_count")
    created_at = serializers.DateTimeField()


class RaterStudySerializer(serializers.Serializer):
    """What a rater sees of a study in the list."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    created_at = serializers.DateTimeField()
    done = serializers.IntegerField(source="my_ratings", help_text="Pairs the caller rated.")
    total = serializers.IntegerField(
        source="my_assignments", help_text="Pairs given to the caller to rate."
    )


class RatingSegmentSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    speaker = serializers.CharField()
    text = serializers.CharField()


class RatingTurnSerializer(RatingSegmentSerializer):
    in_pair = serializers.BooleanField(help_text="False for the neighbouring turns, context.")


class RatingPairSerializer(serializers.Serializer):
    assignment = serializers.IntegerField()
    document_name = serializers.CharField()
    segment = RatingSegmentSerializer()
    turns = RatingTurnSerializer(many=True)


class RaterNextSerializer(serializers.Serializer):
    study = serializers.IntegerField()
    name = serializers.CharField()
    done = serializers.IntegerField()
    total = serializers.IntegerField()
    can_undo = serializers.BooleanField()
    pair = RatingPairSerializer(allow_null=True, help_text="Null when every pair is rated.")


class RateInputSerializer(serializers.Serializer):
    assignment = IdField()
    answer = serializers.ChoiceField(choices=Answer.choices)
    note = serializers.CharField(max_length=500, required=False, default="", allow_blank=True)


class AnswerShareSerializer(serializers.Serializer):
    count = serializers.IntegerField(help_text="Ratings with this answer.")
    share = serializers.FloatField(
        allow_null=True, help_text="Mean over the rated pairs of their raters' share."
    )
    interval = serializers.ListField(
        child=serializers.FloatField(),
        min_length=2,
        max_length=2,
        allow_null=True,
        help_text="95 % Wilson interval of the share, the bin's rated pairs as trials.",
    )


class ResultBinSerializer(StudyBinSerializer):
    items = serializers.IntegerField(help_text="Sampled pairs in the bin.")
    ratings = serializers.IntegerField()
    yes = AnswerShareSerializer()
    partly = AnswerShareSerializer()
    no = AnswerShareSerializer()


class ControlRaterSerializer(serializers.Serializer):
    rater = serializers.CharField()
    ratings = serializers.IntegerField()
    yes_share = serializers.FloatField()
    flagged = serializers.BooleanField(help_text="Said yes to fewer than 70 % of gold pairs.")


class CurvePointSerializer(serializers.Serializer):
    min_confidence = serializers.FloatField()
    estimated_yes_share = serializers.FloatField(allow_null=True)


class StudyResultsSerializer(serializers.Serializer):
    study = serializers.IntegerField()
    ratings = serializers.IntegerField()
    assignments = serializers.IntegerField()
    bins = ResultBinSerializer(many=True)
    alpha = serializers.FloatField(allow_null=True, help_text="Krippendorff's ordinal alpha.")
    controls = ControlRaterSerializer(many=True)
    target_yes_share = serializers.FloatField()
    recommended_min_confidence = serializers.FloatField(allow_null=True)
    recommended_yes_share = serializers.FloatField(
        allow_null=True,
        help_text="The estimated share of yes from `recommended_min_confidence` up.",
    )
    recommended_rated_pairs = serializers.IntegerField(
        help_text="The rated automatic pairs at or above `recommended_min_confidence`: what "
        "`recommended_yes_share` rests on (0 without a recommendation)."
    )
    curve = CurvePointSerializer(many=True)


class StudyEstimateSerializer(serializers.Serializer):
    study = serializers.IntegerField()
    name = serializers.CharField()
    min_confidence = serializers.FloatField()
    estimated_yes_share = serializers.FloatField(allow_null=True)
    rated_pairs = serializers.IntegerField()
