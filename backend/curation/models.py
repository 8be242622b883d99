"""A document's gold, stored, and the adjudications that decide it when annotators disagree.

`Gold` is written only by `backend.curation.services.gold_refresh`, which applies the rule in
`backend.curation.rule`; every reader (closing, records, tuning, exports, the editor) reads
this row, so there is one answer to "what is this document's gold" everywhere.
"""

from django.conf import settings
from django.db import models


class GoldRule(models.TextChoices):
    """What made a document's gold; stored on it and copied into records and exports."""

    SINGLE_ANNOTATOR = "single_annotator", "the only annotator's submission"
    AGREED = "agreed", "identical submissions of every annotator"
    ADJUDICATED = "adjudicated", "adjudicated"


class GoldState(models.TextChoices):
    GOLD = "gold", "gold"
    UNSUBMITTED = "unsubmitted", "waiting for a submission"
    NEEDS_ADJUDICATION = "needs_adjudication", "needs adjudication"


class Adjudication(models.Model):
    """A curator's alignment of a document, made by comparing its annotators' submissions.

    Edited like an annotation (`version` for optimistic concurrency, `baseline` for reset);
    it is the document's gold once completed, and stays so until reopened.
    """

    document = models.OneToOneField(
        "documents.Document", on_delete=models.CASCADE, related_name="adjudication"
    )
    curator = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    sources = models.JSONField(
        default=list, help_text="Ids of the submitted annotations compared when it started."
    )
    baseline = models.JSONField(help_text="Per turn: the labels it started from (reset target).")
    assignments = models.JSONField(help_text="Per turn: report segment position, or -1.")
    seconds_spent = models.PositiveIntegerField(default=0)
    version = models.PositiveIntegerField(default=1)
    completed_at = models.DateTimeField(null=True, blank=True)
    note = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["document"]

    def __str__(self) -> str:
        return f"adjudication of {self.document_id} v{self.version}"


class Gold(models.Model):
    """The labels a document's gold is, and which rule made them (`backend.curation.rule`)."""

    document = models.OneToOneField(
        "documents.Document", on_delete=models.CASCADE, primary_key=True, related_name="gold"
    )
    rule = models.CharField(max_length=24, choices=GoldRule.choices)
    labels = models.JSONField(help_text="Per turn: report segment position, or -1.")
    annotation = models.ForeignKey(
        "alignments.Annotation",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The submission it is (the earliest of identical ones); null when adjudicated.",
    )
    adjudication = models.ForeignKey(
        Adjudication, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    annotators = models.JSONField(
        default=list, help_text="User ids of the submissions the rule counted."
    )
    accepted_without_review = models.JSONField(
        default=list,
        blank=True,
        help_text="Per turn: no counted annotator read it (each accepted it unread in the "
        "editor's review mode); empty when every turn was read.",
    )
    decided_at = models.DateTimeField()

    class Meta:
        ordering = ["document"]

    def __str__(self) -> str:
        return f"gold of {self.document_id} ({self.rule})"
