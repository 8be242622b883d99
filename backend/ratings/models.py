"""Rating studies: human judgements of a stratified sample of the automatic pairs, with gold
pairs mixed in as controls (see workers/align/annotation/rating.py for the figures drawn from them).

A rater's view of an item is its assignment: the pair's text and turns, never its confidence
or origin, so that neither sways the answer.
"""

from django.conf import settings
from django.db import models


class RatingStudy(models.Model):
    project = models.ForeignKey(
        "projects.Project", on_delete=models.CASCADE, related_name="rating_studies"
    )
    name = models.CharField(max_length=200)
    seed = models.BigIntegerField(help_text="Draws the sample, the raters and their orders.")
    sample_size = models.PositiveIntegerField(help_text="Automatic pairs asked for.")
    controls = models.PositiveIntegerField(help_text="Gold pairs asked for.")
    raters_per_pair = models.PositiveIntegerField()
    target_yes_share = models.FloatField(default=0.9)
    bins = models.JSONField(
        help_text="The automatic pairs' confidence bins when the study was drawn: "
        "index, low, high, population."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name


class Origin(models.TextChoices):
    AUTOMATIC = "automatic", "automatic"
    CONTROL = "control", "gold control"


class RatingItem(models.Model):
    """A sampled pair: one report segment and the turns the alignment gave it."""

    study = models.ForeignKey(RatingStudy, on_delete=models.CASCADE, related_name="items")
    document = models.ForeignKey("documents.Document", on_delete=models.CASCADE, related_name="+")
    segment_position = models.PositiveIntegerField()
    turn_positions = models.JSONField()
    confidence = models.FloatField(null=True)
    origin = models.CharField(max_length=16, choices=Origin.choices)
    bin_index = models.PositiveIntegerField(null=True, help_text="Null for controls.")

    class Meta:
        ordering = ["study", "id"]

    def __str__(self) -> str:
        return f"{self.document_id}-{self.segment_position}"


class RatingAssignment(models.Model):
    item = models.ForeignKey(RatingItem, on_delete=models.CASCADE, related_name="assignments")
    rater = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_assignments"
    )
    order = models.PositiveIntegerField(help_text="The rater's own random order in the study.")

    class Meta:
        ordering = ["rater", "order"]
        constraints = [
            models.UniqueConstraint(fields=["item", "rater"], name="one_assignment_per_rater")
        ]

    def __str__(self) -> str:
        return f"{self.rater_id} rates {self.item_id}"


class Answer(models.TextChoices):
    YES = "yes", "yes: written from exactly these turns"
    PARTLY = "partly", "partly: some turns missing or extra"
    NO = "no", "no"


class Rating(models.Model):
    assignment = models.OneToOneField(
        RatingAssignment, on_delete=models.CASCADE, related_name="rating"
    )
    answer = models.CharField(max_length=8, choices=Answer.choices)
    note = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.answer} for {self.assignment_id}"
