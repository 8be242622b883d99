"""Alignments are stored as one compact per-turn array per row (segment position, -1 for
unaligned): the editor loads and saves an 842-turn meeting as one row, not 842."""

from django.conf import settings
from django.db import models


class ParameterSet(models.Model):
    """A named aligner configuration (the engine's `AlignmentParams.to_dict()`)."""

    project = models.ForeignKey(
        "projects.Project", on_delete=models.CASCADE, related_name="parameter_sets"
    )
    name = models.CharField(max_length=200)
    params = models.JSONField(default=dict, blank=True)
    engine_version = models.CharField(max_length=64, blank=True)
    learned = models.JSONField(
        null=True,
        blank=True,
        help_text="The engine's learned decision fitted with these settings on a tuning run's "
        "gold: pre-alignments apply its corrections and its calibrated confidence.",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["project", "-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["project", "name"], name="one_parameter_set_name")
        ]

    def __str__(self) -> str:
        return self.name


class PreAlignment(models.Model):
    """The engine's proposal for one document under one parameter set. `params` is a copy,
    so the proposal stays explainable after its parameter set is edited or deleted."""

    class Calibration(models.TextChoices):
        """What made the confidences read as probabilities, which is what a residual error
        estimated from them is worth."""

        LEARNED = "learned", "a decision learned on the project's own gold"
        PRIOR = "prior", "the shipped prior, fitted on public_meetings gold"
        NONE = "none", "none known: the engine's own confidence, or a file's"

    document = models.ForeignKey(
        "documents.Document", on_delete=models.CASCADE, related_name="pre_alignments"
    )
    parameter_set = models.ForeignKey(
        ParameterSet,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="pre_alignments",
    )
    labels = models.JSONField(help_text="Per turn: report segment position, or -1.")
    confidences = models.JSONField(help_text="Per turn: confidence in [0, 1].")
    run_correlation = models.FloatField(
        null=True,
        blank=True,
        help_text="How strongly a turn's label being wrong goes with its neighbour's, as the "
        "learned decision that calibrated the confidences measured it on gold "
        "(`workers.align.annotation.error_runs`); null when no decision calibrated them.",
    )
    calibration = models.CharField(
        max_length=8,
        choices=Calibration.choices,
        default=Calibration.NONE,
        help_text="What calibrated the confidences (the decision behind `run_correlation`).",
    )
    warnings = models.JSONField(
        default=list,
        blank=True,
        help_text="What the engine found degenerate in it (`workers.align.diagnosis`): "
        "[{code, message, cause, do}], empty when nothing is.",
    )
    params = models.JSONField(default=dict, blank=True)
    engine_version = models.CharField(max_length=64, blank=True)
    computed_at = models.DateTimeField()
    pair_confidences = models.BinaryField(
        null=True,
        editable=False,
        help_text="Each automatic pair's confidence, ascending, as little-endian float64 "
        "(`automatic_pair_confidences`); null without confidences.",
    )

    class Meta:
        ordering = ["document", "-computed_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["document", "parameter_set"], name="one_pre_alignment_per_parameter_set"
            )
        ]

    def __str__(self) -> str:
        return f"pre-alignment of {self.document_id} with {self.parameter_set_id}"


class Annotation(models.Model):
    """One annotator's current alignment of one document.

    `version` increases with every write; a write names the version it was based on and
    is refused when another write came first (optimistic concurrency).
    """

    document = models.ForeignKey(
        "documents.Document", on_delete=models.CASCADE, related_name="annotations"
    )
    annotator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="annotations"
    )
    pre_alignment = models.ForeignKey(
        PreAlignment, null=True, blank=True, on_delete=models.SET_NULL, related_name="annotations"
    )
    assignments = models.JSONField(help_text="Per turn: report segment position, or -1.")
    changed = models.JSONField(help_text="Per turn: differs from the pre-alignment.")
    reviewed = models.JSONField(
        default=list,
        blank=True,
        help_text="Per turn: the annotator visited, confirmed or changed it in the editor "
        "(empty for rows saved before turns were counted: none).",
    )
    accepted_without_review = models.JSONField(
        default=list,
        blank=True,
        help_text="Per turn: taken as the pre-alignment proposed it, unread, when the annotator "
        "submitted with `accept_unreviewed` from the review mode; empty when none.",
    )
    spot_check = models.JSONField(
        default=dict,
        blank=True,
        help_text="{share, pool, drawn, labels_before}: the turns still unread when the "
        "annotator asked for the spot check, those drawn from them to read, and the labels "
        "then; empty when none was drawn.",
    )
    seconds_spent = models.PositiveIntegerField(default=0)
    submitted_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["document", "annotator"]
        constraints = [
            models.UniqueConstraint(
                fields=["document", "annotator"], name="one_annotation_per_annotator"
            )
        ]

    def __str__(self) -> str:
        return f"annotation of {self.document_id} by {self.annotator_id} v{self.version}"


class ReadingPosition(models.Model):
    """Where a person last was in a document's editor, kept on the server so that another
    browser or device opens it there; apart from the annotation, whose versions count edits."""

    document = models.ForeignKey(
        "documents.Document", on_delete=models.CASCADE, related_name="reading_positions"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reading_positions"
    )
    turn = models.PositiveIntegerField()
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["document", "user"], name="one_reading_position")
        ]

    def __str__(self) -> str:
        return f"{self.user} at turn {self.turn} of {self.document}"
