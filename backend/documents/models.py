from django.conf import settings
from django.db import models


class Document(models.Model):
    """One transcript/report pair.

    `segments_json` and `turns_json` are the editor's views of the rows below, serialised
    once at import: the editor's request then copies text instead of building 1,200 objects.
    """

    class Status(models.TextChoices):
        IMPORTING = "importing", "Importing"
        IMPORT_FAILED = "import_failed", "Import failed"
        IMPORTED = "imported", "Imported"
        PRE_ALIGNED = "pre_aligned", "Pre-aligned"
        IN_ANNOTATION = "in_annotation", "In annotation"
        SUBMITTED = "submitted", "Submitted"

    project = models.ForeignKey(
        "projects.Project", on_delete=models.CASCADE, related_name="documents"
    )
    name = models.CharField(max_length=300)
    source = models.CharField(
        max_length=200, blank=True, help_text="Where it came from, e.g. public_meetings:<id>."
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.IMPORTING)
    iteration = models.ForeignKey(
        "iterations.Iteration",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="documents",
    )
    assignees = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="assigned_documents"
    )
    segment_count = models.PositiveIntegerField(default=0)
    turn_count = models.PositiveIntegerField(default=0)
    word_count = models.PositiveIntegerField(default=0)
    segments_json = models.TextField(default="[]", editable=False)
    turns_json = models.TextField(default="[]", editable=False)
    import_error = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["project", "name", "id"]
        indexes = [models.Index(fields=["project", "status"])]

    def __str__(self) -> str:
        return self.name


def original_file_path(original: "OriginalFile", filename: str) -> str:
    return f"documents/{original.document.project_id}/{original.document_id}/{filename}"


class OriginalFile(models.Model):
    """An uploaded file kept as received, so a document can be re-read by a newer reader; a
    document's recording (role `audio`, one at most) is kept the same way, for listening."""

    class Role(models.TextChoices):
        REPORT = "report", "Report"
        TRANSCRIPT = "transcript", "Transcript"
        AUDIO = "audio", "Audio"

    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="files")
    role = models.CharField(max_length=16, choices=Role.choices)
    position = models.PositiveIntegerField(default=0)
    file = models.FileField(upload_to=original_file_path, max_length=500)
    original_name = models.CharField(max_length=255)
    size = models.PositiveBigIntegerField()
    sha256 = models.CharField(max_length=64)

    class Meta:
        ordering = ["document", "role", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["document"], condition=models.Q(role="audio"), name="one_audio_per_document"
            )
        ]

    def __str__(self) -> str:
        return f"{self.role} {self.original_name}"


class ReportSegment(models.Model):
    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="segments")
    position = models.PositiveIntegerField()
    key = models.CharField(max_length=64, help_text="The reader's id for the segment.")
    text = models.TextField()
    sentences = models.JSONField(default=list)
    speaker = models.CharField(max_length=300, blank=True)
    section = models.CharField(
        max_length=300, blank=True, help_text="The paper's section title (talk projects)."
    )
    word_count = models.PositiveIntegerField()

    class Meta:
        ordering = ["document", "position"]
        constraints = [
            models.UniqueConstraint(fields=["document", "position"], name="one_segment_position")
        ]

    def __str__(self) -> str:
        return f"segment {self.position} of {self.document_id}"


class TranscriptTurn(models.Model):
    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="turns")
    position = models.PositiveIntegerField()
    key = models.CharField(max_length=64, help_text="The reader's id for the turn.")
    text = models.TextField()
    sentences = models.JSONField(default=list)
    speaker = models.CharField(max_length=300, blank=True)
    start = models.FloatField(null=True, blank=True)
    end = models.FloatField(null=True, blank=True)
    word_count = models.PositiveIntegerField()
    words = models.JSONField(
        default=list, blank=True, help_text="[text, start, end, confidence] per recognised word."
    )

    class Meta:
        ordering = ["document", "position"]
        constraints = [
            models.UniqueConstraint(fields=["document", "position"], name="one_turn_position")
        ]

    def __str__(self) -> str:
        return f"turn {self.position} of {self.document_id}"
