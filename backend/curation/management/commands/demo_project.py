"""`manage.py demo_project`: a project with three real meetings to annotate, for scripts/run.

Re-runs change nothing and skip the corpus entirely once the documents exist, so starting
Tandem stays quick; passwords are generated once and kept in the data folder (mode 0600),
so every run prints the same ones.
"""

import json
import os
import secrets
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand
from django.db import transaction

from backend.curation.public_meetings import (
    import_public_meeting,
    public_meeting_documents,
    smallest_meetings,
)
from backend.documents.models import Document
from backend.projects.models import Membership, Project, Role
from backend.projects.services import project_create

PROJECT_NAME = "Demo: public meetings"
LEAD, ANNOTATOR = "demo-lead", "demo-annotator"
MEETING_COUNT = 3


class Command(BaseCommand):
    help = "Create (once) the demo project, its two users and three public_meetings documents."

    def handle(self, *args: Any, **options: Any) -> None:
        credentials = _credentials(Path(settings.DATA_DIR) / "demo-credentials.json")
        lead = _user(LEAD, credentials)
        annotator = _user(ANNOTATOR, credentials)
        project = _project(lead, annotator)
        documents = _documents(project, lead, annotator)
        self.stdout.write(
            f"Demo project {project.name!r} (id {project.pk}) with {len(documents)} documents:\n"
            f"  open /projects/{project.pk}  (API: /api/v1/projects/{project.pk}/documents/)\n"
            f"  lead:      {LEAD} / {credentials[LEAD]}\n"
            f"  annotator: {ANNOTATOR} / {credentials[ANNOTATOR]}\n"
        )


def _credentials(path: Path) -> dict[str, str]:
    if path.exists():
        return json.loads(path.read_text())
    credentials = {name: secrets.token_urlsafe(12) for name in (LEAD, ANNOTATOR)}
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w") as handle:
        json.dump(credentials, handle)
    return credentials


def _user(username: str, credentials: dict[str, str]) -> User:
    """Resets the password only when it does not match the file, since hashing is slow."""
    user, created = get_user_model().objects.get_or_create(username=username)
    if created or not user.check_password(credentials[username]):
        user.set_password(credentials[username])
        user.save(update_fields=["password"])
    return user


@transaction.atomic
def _project(lead: User, annotator: User) -> Project:
    project = Project.objects.filter(name=PROJECT_NAME).order_by("pk").first()
    if project is None:
        project = project_create(
            creator=lead,
            name=PROJECT_NAME,
            description="Three small public_meetings meetings, pre-aligned by the corpus.",
            language="fr",
        )
    Membership.objects.get_or_create(project=project, user=lead, defaults={"role": Role.LEAD})
    Membership.objects.get_or_create(
        project=project, user=annotator, defaults={"role": Role.ANNOTATOR}
    )
    return project


def _documents(project: Project, lead: User, annotator: User) -> list[Document]:
    existing = list(public_meeting_documents(project=project))
    if len(existing) >= MEETING_COUNT:
        return existing
    return [
        import_public_meeting(
            actor=lead, project=project, meeting_id=meeting_id, assignees=[annotator]
        )
        for meeting_id in smallest_meetings(MEETING_COUNT)
    ]
