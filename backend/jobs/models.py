import uuid

from django.conf import settings
from django.db import models


class Job(models.Model):
    """A background task as users see it. Celery's own result rows are an implementation
    detail; this row is what the API reports, what cancel flips, and what tasks consult."""

    class Kind(models.TextChoices):
        IMPORT_DOCUMENT = "import_document", "Import a document"
        PRE_ALIGN = "pre_align", "Pre-align documents"
        TRAIN_VECTORS = "train_vectors", "Train word vectors"
        TUNE = "tune", "Tune the aligner"

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        SUCCEEDED = "succeeded", "Succeeded"
        FAILED = "failed", "Failed"
        CANCELLED = "cancelled", "Cancelled"

    FINISHED = (Status.SUCCEEDED, Status.FAILED, Status.CANCELLED)

    project = models.ForeignKey(
        "projects.Project", null=True, blank=True, on_delete=models.CASCADE, related_name="jobs"
    )
    document = models.ForeignKey(
        "documents.Document",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="jobs",
    )
    kind = models.CharField(max_length=32, choices=Kind.choices)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    progress = models.FloatField(default=0.0)
    message = models.CharField(max_length=200, blank=True)
    error = models.TextField(blank=True)
    arguments = models.JSONField(
        default=dict, blank=True, help_text="What the task works on (ids), set when created."
    )
    result = models.JSONField(default=dict, blank=True)
    retries = models.PositiveIntegerField(
        default=0, help_text="Times the task was retried after a transient error."
    )
    celery_task_id = models.CharField(max_length=64, default=uuid.uuid4, unique=True)
    task_name = models.CharField(
        max_length=200,
        blank=True,
        help_text="The task the job was enqueued as; sent again when the job's worker is gone.",
    )
    heartbeat_at = models.DateTimeField(
        null=True, blank=True, help_text="Last sign of life from a worker running the job."
    )
    worker = models.CharField(
        max_length=200,
        blank=True,
        help_text="The worker that last stamped the job: the one running it, while it runs.",
    )
    requeues = models.PositiveIntegerField(
        default=0, help_text="Times the job was sent again because its worker was gone."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["project", "status"])]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({self.status})"
