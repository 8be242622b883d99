from django.conf import settings as django_settings
from django.db import models


class Project(models.Model):
    """`settings` holds the project's options, each checked by the API's
    ProjectSettingsSerializer; the promoted parameter set is what new pre-alignments are
    computed with. `kind` is chosen at creation and never changes: a talk project's reports
    are papers, and a podcast project's are descriptions cut into sentences, whose segments
    no meeting report could be read back into."""

    class Kind(models.TextChoices):
        MEETING = "meeting", "Meeting and report"
        TALK = "talk", "Talk and paper"
        PODCAST = "podcast", "Podcast and description"

    name = models.CharField(max_length=200)
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.MEETING)
    description = models.TextField(blank=True)
    language = models.CharField(max_length=16, default="fr")
    promoted_parameter_set = models.ForeignKey(
        "alignments.ParameterSet",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    settings = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Role(models.TextChoices):
    """A curator annotates what they are assigned, like an annotator, and also reads every
    document and adjudicates between annotators; a lead also runs the project."""

    LEAD = "lead", "Lead"
    CURATOR = "curator", "Curator"
    ANNOTATOR = "annotator", "Annotator"


class Membership(models.Model):
    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=16, choices=Role.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["project", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["project", "user"], name="one_membership_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.user} is {self.role} of {self.project}"
