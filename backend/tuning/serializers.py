"""How a tuning candidate is shown: by the tuning runs' API and by the iterations and
dashboards that quote a run's proposal or its table."""

from rest_framework import serializers


class CandidateOutputSerializer(serializers.Serializer):
    """One row of the paper's Table 1: a setting and its scores on the gold it was run on."""

    id = serializers.IntegerField()
    index = serializers.IntegerField()
    rank = serializers.IntegerField(allow_null=True)
    stage = serializers.IntegerField()
    documents_evaluated = serializers.IntegerField()
    segment_accuracy = serializers.FloatField(allow_null=True)
    word_accuracy = serializers.FloatField(allow_null=True)
    window_diff = serializers.FloatField(allow_null=True)
    objective = serializers.FloatField(allow_null=True)
    params = serializers.JSONField()
