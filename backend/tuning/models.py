"""A tuning run: the paper's grid search over a project's gold documents, fanned out over
workers. Each stage evaluates the surviving settings on more gold documents (round 1: every
setting on a few documents; round 2: the best share on all of them); the run ends with every
setting ranked and the best one recorded."""

from django.conf import settings
from django.db import models


class TuningRun(models.Model):
    class RankedBy(models.TextChoices):
        TURNS = "turns", "share of turns aligned right"
        BALANCED = "balanced", "segment + word accuracy - WindowDiff"

    project = models.ForeignKey(
        "projects.Project", on_delete=models.CASCADE, related_name="tuning_runs"
    )
    job = models.OneToOneField("jobs.Job", on_delete=models.CASCADE, related_name="tuning_run")
    gold_documents = models.JSONField(
        help_text="[{document, annotation}] in evaluation order: the first stages use the first."
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
        on_delete=models.PROTECT,
        related_name="tuning_runs",
    )
    best = models.ForeignKey(
        "TuningCandidate", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
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
