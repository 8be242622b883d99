from rest_framework import serializers

from backend.salience.selectors import SalienceSummary


class LabelAgreementSerializer(serializers.Serializer):
    precision = serializers.FloatField(allow_null=True)
    recall = serializers.FloatField(allow_null=True)
    f1 = serializers.FloatField(allow_null=True)
    true_positives = serializers.IntegerField()
    false_positives = serializers.IntegerField()
    false_negatives = serializers.IntegerField()
    true_negatives = serializers.IntegerField()


class SalienceSummarySerializer(serializers.Serializer):
    units = serializers.IntegerField()
    automatic_positive = serializers.IntegerField()
    candidates = serializers.IntegerField()
    candidate_positive = serializers.IntegerField()
    gold_units = serializers.IntegerField()
    gold_positive = serializers.IntegerField()
    positive_ratio = serializers.SerializerMethodField()
    candidate_positive_ratio = serializers.SerializerMethodField()

    def get_positive_ratio(self, summary: SalienceSummary) -> float | None:
        return summary.automatic_positive / summary.units if summary.units else None

    def get_candidate_positive_ratio(self, summary: SalienceSummary) -> float | None:
        return summary.candidate_positive / summary.candidates if summary.candidates else None
