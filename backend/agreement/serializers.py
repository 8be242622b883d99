"""How agreement figures are shown: by the agreement dashboard and the export preview."""

from rest_framework import serializers


class AgreementMeasuresSerializer(serializers.Serializer):
    """`workers.align.annotation.agreement.Agreement`'s figures: percentages but kappa and
    alpha; null when undefined (no shared turns, or a single label throughout)."""

    documents = serializers.IntegerField(help_text="Documents at least two of them annotated.")
    units = serializers.IntegerField(help_text="Turns at least two of them labelled.")
    unit_words = serializers.IntegerField()
    turn_agreement = serializers.FloatField(allow_null=True)
    word_agreement = serializers.FloatField(allow_null=True)
    kappa = serializers.FloatField(allow_null=True)
    alpha = serializers.FloatField(allow_null=True)
    unaligned_agreement = serializers.FloatField(allow_null=True)
    windowdiff = serializers.FloatField(allow_null=True)
    pk = serializers.FloatField(allow_null=True)


class CodersAgreementSerializer(AgreementMeasuresSerializer):
    """The same among coders named by username."""

    usernames = serializers.ListField(child=serializers.CharField())


class AgreementFiguresSerializer(CodersAgreementSerializer):
    """The same among annotators of the project: their ids beside their usernames."""

    annotators = serializers.ListField(child=serializers.IntegerField())


class CorpusAgreementSerializer(serializers.Serializer):
    """Pooled over the documents an export keeps, overall and per pair of coders."""

    overall = CodersAgreementSerializer()
    pairs = CodersAgreementSerializer(many=True)
