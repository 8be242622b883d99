"""The schema of a job's result: the results of every kind of job, described here because the
tuning app may import the apps whose jobs produce them (documents, word vectors,
pre-alignments, tuning), while the jobs app, below them all, shows results as stored.
TuningConfig.ready() imports this module, which registers the description with
drf-spectacular."""

from typing import Any

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import Direction
from rest_framework import serializers

from backend.alignments.serializers import (
    AlignmentParamsSerializer,
    PreAlignmentWarningSerializer,
)
from backend.tuning.models import PROPOSAL_REASONS, LearningRefusal
from backend.tuning.serializers import LearnedResultSerializer


class IncumbentResultSerializer(serializers.Serializer):
    name = serializers.CharField()
    objective = serializers.FloatField(allow_null=True)


class LearningRefusalResultSerializer(serializers.Serializer):
    code = serializers.ChoiceField(choices=LearningRefusal.values)
    reason = serializers.CharField()


class ProposalResultSerializer(serializers.Serializer):
    reason = serializers.ChoiceField(
        choices=PROPOSAL_REASONS,
        help_text="Why no other setting than the incumbent's is proposed; empty with a "
        "candidate of the grid as proposal.",
    )
    recalibrates = serializers.BooleanField(
        required=False,
        help_text="The proposal is the incumbent with a learned decision refitted on the gold.",
    )
    note = serializers.CharField(help_text="The verdict in a sentence.")
    ties = serializers.IntegerField(
        help_text="Candidates scoring as the proposal (or best candidate) on every document."
    )


class DocumentWarningSerializer(PreAlignmentWarningSerializer):
    document = serializers.IntegerField(help_text="The document whose pre-alignment it is.")


class JobResultSerializer(serializers.Serializer):
    """What a finished job produced, by kind; empty until it succeeds. The schema of
    `JobResultField`: results are shown as stored, and the API tests fail on a key this
    does not list."""

    document = serializers.IntegerField(required=False, help_text="Import: the document.")
    segments = serializers.IntegerField(required=False, help_text="Import: report segments.")
    turns = serializers.IntegerField(required=False, help_text="Import: transcript turns.")
    words = serializers.IntegerField(required=False, help_text="Import: transcript words.")
    pre_alignments = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="Pre-alignment: the pre-alignments stored.",
    )
    resumed = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="Pre-alignment: documents an earlier delivery had already stored.",
    )
    parameter_set = serializers.IntegerField(required=False, help_text="Pre-alignment.")
    warnings = DocumentWarningSerializer(
        many=True,
        required=False,
        help_text="Pre-alignment: what the engine found degenerate in each document's result.",
    )
    word_vectors = serializers.IntegerField(required=False, help_text="Word vectors: their id.")
    vocabulary_size = serializers.IntegerField(required=False, help_text="Word vectors.")
    sentences = serializers.IntegerField(required=False, help_text="Word vectors: trained on.")
    segmented_by = serializers.ChoiceField(
        choices=["speakers", "paragraphs", "sentences", "sections"],
        required=False,
        help_text="Import: how the report was cut into segments.",
    )
    documents = serializers.IntegerField(
        required=False, help_text="Word vectors: documents read; tuning: gold documents."
    )
    tuning_run = serializers.IntegerField(required=False, help_text="Tuning: the run.")
    best_candidate = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="Tuning: the proposal (the incumbent itself when `proposal.recalibrates`); "
        "null when no candidate beats the incumbent by more than the bootstrap interval over "
        "the gold documents and no new learned decision was fitted for it.",
    )
    params = AlignmentParamsSerializer(
        required=False, help_text="Tuning: the best settings other than the incumbent."
    )
    segment_accuracy = serializers.FloatField(required=False, allow_null=True)
    word_accuracy = serializers.FloatField(required=False, allow_null=True)
    window_diff = serializers.FloatField(required=False, allow_null=True)
    objective = serializers.FloatField(required=False, allow_null=True)
    ranked_by = serializers.CharField(required=False, help_text="Tuning: the objective.")
    incumbent = IncumbentResultSerializer(
        required=False,
        allow_null=True,
        help_text="Tuning: the parameters in use when the run started, and their objective.",
    )
    learned = LearnedResultSerializer(
        required=False,
        allow_null=True,
        help_text="Tuning: the learned decision fitted for the proposal (else for the "
        "incumbent, or the best candidate when the incumbent is another aligner) on the gold "
        "(null for an aligner other than the turn path, and when the run refused to learn).",
    )
    learning_refusal = LearningRefusalResultSerializer(
        required=False,
        allow_null=True,
        help_text="Tuning: why no learned decision was fitted or kept; null when one was.",
    )
    proposal = ProposalResultSerializer(
        required=False, help_text="Tuning: what the run proposes, or why nothing."
    )


class JobResultFieldSchema(OpenApiSerializerFieldExtension):
    target_class = "backend.jobs.apis.JobResultField"

    def map_serializer_field(self, auto_schema: AutoSchema, direction: Direction) -> dict[str, Any]:
        return auto_schema._map_serializer_field(JobResultSerializer(), direction)
