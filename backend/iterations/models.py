from django.conf import settings
from django.db import models


class Iteration(models.Model):
    """One round of the bootstrap loop; deliberately thin until the bootstrap issue fills it
    in. Documents point here to say which round they were pre-aligned and annotated in."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        CLOSED = "closed", "Closed"

    project = models.ForeignKey(
        "projects.Project", on_delete=models.CASCADE, related_name="iterations"
    )
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
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
