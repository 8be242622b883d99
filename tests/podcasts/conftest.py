from dataclasses import dataclass

import pytest
from rest_framework.test import APIClient

from backend.documents.models import Document
from backend.documents.services import document_store_parsed
from backend.projects.models import Membership, Project, Role
from backend.projects.podcasts import window_config
from tests.domain import make_user
from tests.podcasts.episodes import episode
from workers.align.podcasts.time_windows import window_transcript
from workers.align.readers import read_description_file, read_transcript


@dataclass
class Podcasts:
    lead: object
    annotator: object
    project: Project

    def client(self, who: str = "lead") -> APIClient:
        client = APIClient()
        client.force_login(getattr(self, who))
        return client

    @property
    def url(self) -> str:
        return f"/api/v1/projects/{self.project.pk}"

    def add_episode(self, name: str, seconds: float = 250.0, description: str | None = None):
        """Stored as the import job stores it (the job itself is tested on a real worker)."""
        cut = episode(seconds)
        document = Document.objects.create(project=self.project, name=name, source=name)
        document.assignees.add(self.annotator)
        report = read_description_file(
            (description or cut.description).encode(), "description.txt", "fr"
        )
        transcript = read_transcript(cut.whisper_json, "episode.json", "fr")
        config = window_config(self.project)
        if config is not None:
            transcript = window_transcript(transcript, config)
        document_store_parsed(document=document, report=report, transcript=transcript)
        return document


@pytest.fixture
def podcasts(db) -> Podcasts:
    lead, annotator = make_user("podcast-lead"), make_user("podcast-annotator")
    project = Project.objects.create(name="Podcasts", language="fr", kind=Project.Kind.PODCAST)
    Membership.objects.create(project=project, user=lead, role=Role.LEAD)
    Membership.objects.create(project=project, user=annotator, role=Role.ANNOTATOR)
    return Podcasts(lead, annotator, project)
