"""What happens to projects that apps above them react to (backend/core/events.py)."""

from dataclasses import dataclass

from django.contrib.auth.models import User

from backend.core.events import Event
from backend.projects.models import Project


@dataclass(frozen=True)
class ProjectCreated(Event):
    """A project was created, by `creator`, its first lead."""

    project: Project
    creator: User
