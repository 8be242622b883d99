"""A bootstrap iteration (paper, section 4.1) and what closing it records.

An iteration's status is derived, not stored: it follows from the lead's actions (open, close,
or cancel) and from the two background jobs they start (the batch's pre-alignment, the tuning
run on all gold so far). Storing it would need the workers to write back into this app when
their jobs finish, and a missed write would leave a status that contradicts its own jobs.
"""

from django.conf import settings
from django.db import models


class IterationStatus(models.TextChoices):
    OPEN = "open", "Open: pre-aligning the batch"
    ANNOTATING = "annotating", "Annotating"
    CLOSING = "closing", "Closing: tuning on the gold so far"
    CLOSED = "closed", "Closed"
    CANCELLED = "cancelled", "Cancelled"


class StartingParameters(models.TextChoices):
    """What pre-aligns a project's batches until the lead promotes a parameter set."""

    SHIPPED = "shipped", "the shipped defaults, tuned on public_meetings"
    DIAGONAL = "diagonal", "the diagonal aligner, as in the paper's first iteration"


class Iteration(models.Model):
    """One round of the loop: a batch of documents pre-aligned with `parameter_set`
    (`parameters` keeps a copy, so the round stays explainable after the set is deleted),
    corrected by annotators, then closed into accuracy records and a tuning run."""

    Status = IterationStatus

    project = models.ForeignKey(
        "projects.Project", on_delete=models.CASCADE, related_name="iterations"
    )
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=200, blank=True)
    parameter_set = models.ForeignKey(
        "alignments.ParameterSet",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    parameters = models.JSONField(default=dict, blank=True)
    pre_align_job = models.ForeignKey(
        "jobs.Job", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    double_annotation = models.JSONField(
        default=dict,
        blank=True,
        help_text="{share, seed, documents, annotators}: the documents two annotators correct "
        "and how they were drawn; empty when none.",
    )
    review_threshold = models.FloatField(
        null=True,
        blank=True,
        help_text="The editor's review mode shows turns whose pre-alignment confidence is "
        "below this; null for `auto`, the threshold whose estimated residual error is 2 %.",
    )
    review_spot_check = models.FloatField(
        null=True,
        blank=True,
        help_text="The share of the turns left unread after review that the editor draws at "
        "random for the annotator to read before accepting the rest; null for none.",
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    cancelled_at = models.DateTimeField(null=True, blank=True)
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    cancelled_documents = models.JSONField(
        default=list,
        blank=True,
        help_text="The documents a cancellation freed: the batch as it was, kept as history.",
    )
    tuning_run = models.ForeignKey(
        "tuning.TuningRun", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    corpus_at_close = models.JSONField(
        default=dict, blank=True, help_text="Gold and trusted automatic pairs when it closed."
    )
    promoted_parameter_set = models.ForeignKey(
        "alignments.ParameterSet",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="What the lead promoted after this iteration's tuning.",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["project", "number"]
        constraints = [
            models.UniqueConstraint(fields=["project", "number"], name="one_iteration_number")
        ]

    def __str__(self) -> str:
        return f"{self.project} #{self.number}"

    @property
    def double_or_none(self) -> dict | None:
        return self.double_annotation or None

    @property
    def status(self) -> str:
        from backend.jobs.models import Job

        if self.cancelled_at is not None:
            return IterationStatus.CANCELLED
        if self.closed_at is None:
            job = self.pre_align_job
            pre_aligned = job is not None and job.status == Job.Status.SUCCEEDED
            return IterationStatus.ANNOTATING if pre_aligned else IterationStatus.OPEN
        run = self.tuning_run
        tuning = run is not None and run.job.status not in Job.FINISHED
        return IterationStatus.CLOSING if tuning else IterationStatus.CLOSED


class AccuracyRecord(models.Model):
    """How good one document's pre-alignment was, written once when its iteration closes.

    Human-evaluated accuracy is the paper's: the share of turns (or of their words) the
    annotator left as pre-aligned. The automatic metrics score the same pre-alignment against
    the gold with the benchmark's definitions. Label arrays are copies, because pre-alignments
    are replaced when a document is pre-aligned again and annotations can be reopened.
    """

    iteration = models.ForeignKey(Iteration, on_delete=models.CASCADE, related_name="records")
    document = models.ForeignKey(
        "documents.Document", on_delete=models.CASCADE, related_name="accuracy_records"
    )
    gold_rule = models.CharField(
        max_length=24,
        blank=True,
        help_text="Which rule made the gold (backend.curation.rule.GoldRule); blank before it.",
    )
    annotator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The gold's annotator; the curator when it was adjudicated.",
    )
    annotation = models.ForeignKey(
        "alignments.Annotation",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    pre_alignment = models.ForeignKey(
        "alignments.PreAlignment",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    pre_alignment_labels = models.JSONField()
    gold_labels = models.JSONField()
    turns = models.PositiveIntegerField()
    words = models.PositiveIntegerField()
    unchanged_turns = models.PositiveIntegerField()
    unchanged_words = models.PositiveIntegerField()
    human_turn_accuracy = models.FloatField(help_text="Percent of turns left unchanged.")
    human_word_accuracy = models.FloatField(help_text="Percent of words in unchanged turns.")
    segment_accuracy = models.FloatField(help_text="Percent, benchmark definition.")
    word_accuracy = models.FloatField(help_text="Percent, benchmark definition.")
    windowdiff = models.FloatField(
        null=True,
        help_text="Percent, benchmark definition; null where undefined (the window rounds to 0).",
    )
    seconds_spent = models.PositiveIntegerField(default=0)
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["iteration", "document__name", "document_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["iteration", "document"], name="one_record_per_iteration_document"
            )
        ]

    def __str__(self) -> str:
        return f"accuracy of {self.document_id} in iteration {self.iteration_id}"
