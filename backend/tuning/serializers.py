"""How a tuning candidate is shown: by the tuning runs' API and by the iterations and
dashboards that quote a run's proposal or its table."""

from typing import Any, cast

from drf_spectacular.utils import OpenApiParameter, extend_schema_field
from rest_framework import serializers

from backend.alignments.serializers import AlignmentParamsSerializer
from backend.tuning import plan
from backend.tuning.models import LEARNING_REFUSALS, PROPOSAL_REASONS, TuningCandidate
from backend.tuning.selectors import CANDIDATE_ORDERINGS, candidate_spreads

MAX_GRID_ENTRIES = 64
"""More entries than the aligner has parameters (each comma-joined key counts once)."""

CANDIDATE_ORDERING_PARAMETER = OpenApiParameter(
    "ordering",
    str,
    enum=CANDIDATE_ORDERINGS,
    description="A figure to sort by, best first; with - before it, worst first. "
    "Candidates without the figure come last either way.",
)


class LearnedResultSerializer(serializers.Serializer):
    """A tuning run's learned decision, as its job's result sums it up."""

    corrections_kept = serializers.BooleanField(
        help_text="Whether per-turn corrections beat the path on held-out gold and are applied."
    )
    threshold = serializers.FloatField(help_text="The probability a correction needs.")
    calibration_score = serializers.ChoiceField(
        choices=["engine", "logistic"],
        help_text="What the calibrated confidence maps: the engine's own confidence or a "
        "logistic model over the turn's evidence, whichever ranked held-out turns better.",
    )
    second_opinions_kept = serializers.BooleanField(
        required=False,
        help_text="Whether a score that also reads the other aligners' labels ranked held-out "
        "turns better still and maps the confidence of documents that have them. Absent from "
        "runs that finished before it existed.",
    )
    held_out = serializers.DictField(
        child=serializers.FloatField(allow_null=True),
        help_text="The figures, cross-fitted inside the gold, the choices were made on.",
    )


_SCALAR_TYPES = [{"type": "string"}, {"type": "number"}, {"type": "boolean"}]


@extend_schema_field(
    {
        "oneOf": [*_SCALAR_TYPES, {"type": "array", "items": {"oneOf": _SCALAR_TYPES}}],
        "nullable": True,
    }
)
class GridValueField(serializers.JSONField):
    """One value a grid tries: a scalar, or a list of scalars for names joined by commas."""


NO_SPREAD = {"segment_accuracy": None, "word_accuracy": None, "window_diff": None}


class CandidateSpreadSerializer(serializers.Serializer):
    segment_accuracy = serializers.FloatField(allow_null=True)
    word_accuracy = serializers.FloatField(allow_null=True)
    window_diff = serializers.FloatField(allow_null=True)


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
    is_incumbent = serializers.BooleanField(
        help_text="The parameters in use when the run started, scored on the same gold."
    )
    gain = serializers.FloatField(
        allow_null=True,
        help_text="Objective less the incumbent's on the same gold documents (null for the "
        "incumbent, a candidate dropped before the last stage, and a run without incumbent).",
    )
    gain_low = serializers.FloatField(
        allow_null=True,
        help_text="Lower bound of the gain's 95 % percentile bootstrap interval over the gold "
        "documents: a candidate is proposed only when it is above 0.",
    )
    gain_high = serializers.FloatField(allow_null=True, help_text="Its upper bound.")
    params = AlignmentParamsSerializer()
    spread = serializers.SerializerMethodField(
        help_text="Each figure's standard deviation across the gold documents scored "
        "(percentage points; null below two documents)."
    )

    @extend_schema_field(CandidateSpreadSerializer())
    def get_spread(self, candidate: TuningCandidate) -> dict[str, float | None]:
        # Read once per run and response: every candidate of a page comes from the same slices.
        spreads = cast(dict, self.context).setdefault("candidate_spreads", {})
        if candidate.run_id not in spreads:
            spreads[candidate.run_id] = candidate_spreads(run_id=candidate.run_id)
        return spreads[candidate.run_id].get(candidate.index, NO_SPREAD)


class GoldDocumentSerializer(serializers.Serializer):
    """A run keeps a copy of each document's gold; its labels are left out here."""

    document = serializers.IntegerField()
    rule = serializers.CharField(
        help_text="Which rule made the gold: single_annotator, agreed or adjudicated."
    )


class StageSerializer(serializers.Serializer):
    documents = serializers.IntegerField(help_text="Evaluate on the first n gold documents.")
    keep = serializers.FloatField(help_text="Then keep this share of the settings.")


class GridField(serializers.DictField):
    """A tuning grid, `{name or "name,name": [values]}`, refused before anything is expanded
    when it has too many entries or values or spans too many combinations."""

    child = serializers.ListField(child=GridValueField(), max_length=plan.MAX_SETTINGS)

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if isinstance(data, dict) and len(data) > MAX_GRID_ENTRIES:
            raise serializers.ValidationError(
                f"The grid has {len(data)} entries; at most {MAX_GRID_ENTRIES} are allowed."
            )
        grid = super().to_internal_value(data)
        if plan.grid_too_large(grid):
            raise serializers.ValidationError(plan.GRID_TOO_LARGE)
        return grid


class VerdictFieldsSerializer(serializers.Serializer):
    """What a finished run proposes and learns, or why not: shared by the tuning runs' API
    and the iterations that quote a run."""

    proposal_reason = serializers.ChoiceField(
        choices=PROPOSAL_REASONS,
        help_text="Why the run proposes no other setting than the parameters in use: "
        "`incumbent_best` (no candidate scores above them) or `within_uncertainty` (none beats "
        "them by more than the bootstrap interval over the gold documents); empty with a "
        "candidate of the grid as proposal, or while it works.",
    )
    proposal_recalibrates = serializers.BooleanField(
        help_text="The proposal is the parameters in use themselves with a learned decision "
        "refitted on this run's gold (a new calibration, and corrections that may change "
        "labels): no candidate beat them, and the project uses it only once promoted."
    )
    proposal_note = serializers.CharField(
        help_text="The verdict in a sentence, with the gain's interval; empty while it works."
    )
    proposal_ties = serializers.IntegerField(
        help_text="Candidates scoring exactly as the proposal (or, without one, the best "
        "candidate) on every gold document, it included: one choice, not several."
    )
    learning_refusal = serializers.ChoiceField(
        choices=LEARNING_REFUSALS,
        help_text="Why no learned decision was fitted or kept: `too_few_documents` (fewer gold "
        "documents than the engine's minimum) or `weak_ranking` (held-out AUROC below its "
        "floor); empty otherwise.",
    )
    learning_note = serializers.CharField(
        help_text="The refusal in sentences, with what pre-alignments keep instead."
    )
