"""A tuning run: the paper's grid search over a project's gold documents, fanned out over
workers. Each stage evaluates the surviving settings on more gold documents (round 1: every
setting on a few documents; round 2: the best share on all of them); the run ends with every
setting ranked and the best one recorded."""

import json
from typing import Any

from django.conf import settings
from django.db import models


class NoProposal(models.TextChoices):
    """The engine's `proposal.Reason`s."""

    INCUMBENT_BEST = "incumbent_best", "no candidate scores above the parameters in use"
    WITHIN_UNCERTAINTY = (
        "within_uncertainty",
        "no candidate beats the parameters in use by more than its uncertainty across documents",
    )


class LearningRefusal(models.TextChoices):
    """The engine's `learned.RefusalCode`s."""

    TOO_FEW_DOCUMENTS = "too_few_documents", "fewer gold documents than a decision needs"
    WEAK_RANKING = "weak_ranking", "its held-out AUROC is below the floor"


PROPOSAL_REASONS = ["", *NoProposal.values]
"""A run's `proposal_reason` as the API shows it: blank when it proposes a candidate."""
LEARNING_REFUSALS = ["", *LearningRefusal.values]
"""A run's `learning_refusal` as the API shows it: blank when it learned, or did not try."""


class TuningRun(models.Model):
    class RankedBy(models.TextChoices):
        TURNS = "turns", "share of turns aligned right"
        BALANCED = "balanced", "segment + word accuracy - WindowDiff"

    project = models.ForeignKey(
        "projects.Project", on_delete=models.CASCADE, related_name="tuning_runs"
    )
    job = models.OneToOneField("jobs.Job", on_delete=models.CASCADE, related_name="tuning_run")
    gold_documents = models.JSONField(
        help_text="[{document, rule, labels}]: copies of the gold, in evaluation order (the "
        "first stages use the first)."
    )
    base_params = models.JSONField(help_text="The settings the grid varies.")
    grid = models.JSONField(help_text="{parameter: [values]}; comma-joined names vary together.")
    stages = models.JSONField(
        help_text="[{documents, keep}]: evaluate on the first n, keep a share."
    )
    ranked_by = models.CharField(
        max_length=16,
        choices=RankedBy.choices,
        default=RankedBy.TURNS,
        help_text="The objective candidates are ranked by; the engine's `tune` objectives.",
    )
    stage = models.PositiveIntegerField(default=0, help_text="The stage under way.")
    settings_count = models.PositiveIntegerField()
    planned_evaluations = models.PositiveIntegerField(
        help_text="Setting-document evaluations the run will do; progress counts them."
    )
    word_vectors = models.ForeignKey(
        "vectors.WordVectors",
        null=True,
        blank=True,
        on_delete=models.RESTRICT,
        related_name="tuning_runs",
    )
    best = models.ForeignKey(
        "TuningCandidate",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The proposal: the best candidate, when it beats the incumbent; else the "
        "incumbent recalibrated (`proposal_recalibrates`), or none.",
    )
    incumbent_parameter_set = models.ForeignKey(
        "alignments.ParameterSet",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The parameters in use when the run started (the promoted set, or the "
        "diagonal before any), scored as one more candidate on the same gold.",
    )
    incumbent_name = models.CharField(max_length=200, blank=True)
    incumbent_note = models.CharField(
        max_length=300, blank=True, help_text="Why the incumbent was not scored; blank if it was."
    )
    proposal_reason = models.CharField(
        max_length=32,
        blank=True,
        choices=NoProposal.choices,
        help_text="Why the finished run proposes no other setting than the incumbent's; blank "
        "when it proposes a candidate of the grid (and while it works).",
    )
    proposal_recalibrates = models.BooleanField(
        default=False,
        help_text="The proposal is the incumbent itself with a learned decision refitted on "
        "this run's gold: no candidate beat its parameters, but the gold gave a new calibration "
        "(and corrections, which may change labels), promoted like any proposal.",
    )
    proposal_note = models.CharField(
        max_length=1000,
        blank=True,
        help_text="The verdict in a sentence: the proposal's gain over the incumbent with its "
        "bootstrap interval over the gold documents, or why nothing is proposed.",
    )
    proposal_ties = models.PositiveIntegerField(
        default=0,
        help_text="Candidates that score exactly as the proposal (or, without one, as the best "
        "candidate) on every gold document, it included: one choice, since the gold cannot "
        "tell them apart.",
    )
    learning_refusal = models.CharField(
        max_length=32,
        blank=True,
        choices=LearningRefusal.choices,
        help_text="Why the run learned no decision from its gold; blank when it did, or did not "
        "try (another aligner, or the project switched learning off).",
    )
    learning_note = models.CharField(
        max_length=600,
        blank=True,
        help_text="The refusal in sentences, with what pre-alignments keep instead.",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["project", "-created_at", "-id"]

    def __str__(self) -> str:
        return f"tuning run {self.pk} of project {self.project_id}"

    @property
    def status(self) -> str:
        """The job's: cancelling the job is how a lead stops a run, so the two never differ."""
        return self.job.status

    @property
    def varied_settings(self) -> list[str]:
        """The settings whose value differs between the grid's combinations, in grid order:
        what a person compares candidates by (a grid may list a setting with one value)."""
        varied = []
        for name, values in self.grid.items():
            keys = name.split(",")
            for position, key in enumerate(keys):
                seen = {
                    json.dumps(value[position] if len(keys) > 1 else value, sort_keys=True)
                    for value in values
                }
                if len(seen) > 1:
                    varied.append(key)
        return varied

    @property
    def promoted_candidate(self) -> "TuningCandidate | None":
        """The candidate whose settings the project now pre-aligns with, if one of this
        run's is: what the table marks as promoted. A candidate carrying a learned decision
        must carry the promoted one too: the recalibrated incumbent has the parameters in
        use, but is promoted only once its decision is."""
        promoted = self.project.promoted_parameter_set
        if promoted is None:
            return None
        candidates = self.candidates.only("id", "params", "learned", "run_id")
        return next(
            (
                c
                for c in candidates
                if c.params == promoted.params and c.learned in (None, promoted.learned)
            ),
            None,
        )

    @property
    def incumbent_candidate(self) -> "TuningCandidate | None":
        return self.candidates.filter(is_incumbent=True).first()

    @property
    def learned_summary(self) -> dict[str, Any] | None:
        """The learned decision its job fitted, as the job's result sums it up (None while the
        run works, for an aligner other than the turn path, and when the project learns none)."""
        return (self.job.result or {}).get("learned")

    @property
    def gold_document_ids(self) -> list[int]:
        return [gold["document"] for gold in self.gold_documents]


class TuningCandidate(models.Model):
    """One setting of the grid and its scores on the documents it was evaluated on: all the
    gold documents if it reached the last stage, fewer if it was dropped earlier."""

    run = models.ForeignKey(TuningRun, on_delete=models.CASCADE, related_name="candidates")
    index = models.PositiveIntegerField(help_text="Position in the expanded grid.")
    params = models.JSONField()
    stage = models.PositiveIntegerField(default=0, help_text="The last stage it takes part in.")
    documents_evaluated = models.PositiveIntegerField(default=0)
    segment_accuracy = models.FloatField(null=True, blank=True)
    word_accuracy = models.FloatField(null=True, blank=True)
    window_diff = models.FloatField(null=True, blank=True)
    objective = models.FloatField(
        null=True, blank=True, help_text="The run's `ranked_by` objective on these documents."
    )
    rank = models.PositiveIntegerField(null=True, blank=True, help_text="1 is the best.")
    is_incumbent = models.BooleanField(
        default=False,
        help_text="The parameters in use when the run started: never dropped by a stage, so "
        "that every proposal is compared with them on all the gold.",
    )
    gain = models.FloatField(
        null=True,
        blank=True,
        help_text="Its objective less the incumbent's on the same gold documents; null for the "
        "incumbent, a candidate dropped before the last stage, or a run without incumbent.",
    )
    gain_low = models.FloatField(
        null=True,
        blank=True,
        help_text="The 95 % percentile bootstrap interval of `gain` over the gold documents: "
        "its lower bound. A candidate is proposed only when it is above 0.",
    )
    gain_high = models.FloatField(null=True, blank=True, help_text="Its upper bound.")
    learned = models.JSONField(
        null=True,
        blank=True,
        help_text="For the run's proposal (without one, for the incumbent, and its copy for the "
        "best challenger; for the best turn-path candidate when the incumbent is another "
        "aligner): the engine's learned decision (corrections kept only if they beat the path "
        "on held-out gold, calibrated confidence) fitted on the run's gold with these settings, "
        "or, when the run refused to learn (`learning_refusal`), the incumbent's decision "
        "carried over; a parameter set made from the candidate carries it.",
    )

    class Meta:
        ordering = ["run", "rank", "index"]
        constraints = [
            models.UniqueConstraint(fields=["run", "index"], name="one_candidate_per_grid_index")
        ]

    def __str__(self) -> str:
        return f"candidate {self.index} of tuning run {self.run_id}"


class TuningSlice(models.Model):
    """One task's share of a stage: some candidates on some documents. Its results are
    written once, in one transaction, so a redelivered slice finds them and stops."""

    run = models.ForeignKey(TuningRun, on_delete=models.CASCADE, related_name="slices")
    stage = models.PositiveIntegerField()
    index = models.PositiveIntegerField()
    documents = models.JSONField(help_text="Gold document ids.")
    candidates = models.JSONField(help_text="Candidate grid indices.")
    results = models.JSONField(
        null=True, blank=True, help_text="Per candidate: per document scores."
    )
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["run", "stage", "index"]
        constraints = [
            models.UniqueConstraint(fields=["run", "stage", "index"], name="one_slice_per_position")
        ]

    def __str__(self) -> str:
        return f"slice {self.stage}.{self.index} of tuning run {self.run_id}"

    @property
    def evaluations(self) -> int:
        return len(self.documents) * len(self.candidates)
