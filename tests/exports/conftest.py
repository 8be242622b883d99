"""Real public_meetings meetings, imported from the package's raw files the way users'
uploads are, with gold made by an annotator through the alignment services: the smallest
meetings whose raw files read into exactly the corpus's turns, so the corpus's reference
applies to them."""

import io
import json
from dataclasses import dataclass

import pytest
from rest_framework.test import APIClient

from backend.alignments.services.annotations import (
    AssignmentOperation,
    annotation_apply,
    annotation_submit,
)
from backend.curation.public_meetings import import_public_meeting, public_meeting_labels
from backend.documents.models import Document
from backend.projects.models import Membership, Project, Role
from tests.domain import make_user
from workers.align.corpus import load_public_meetings
from workers.align.document_model import UNALIGNED

GOLD_MEETINGS = ("686239f0", "0b9ec6f0")
PRE_ALIGNED_MEETING = "2f3f95e2"


@dataclass
class Corpus:
    lead: object
    annotator: object
    project: Project
    gold: list[Document]
    pre_aligned: Document

    def client(self, who: str = "lead") -> APIClient:
        client = APIClient()
        client.force_login(getattr(self, who))
        return client

    @property
    def url(self) -> str:
        return f"/api/v1/projects/{self.project.pk}"


def meeting_id(prefix: str) -> str:
    return load_public_meetings([prefix])[0].id


def gold_operations(labels: list[int]) -> list[AssignmentOperation]:
    """The editor's edits that turn any alignment into `labels`: one per run of turns."""
    operations, start = [], 0
    for turn in range(1, len(labels) + 1):
        if turn == len(labels) or labels[turn] != labels[start]:
            label = labels[start]
            operations.append(
                AssignmentOperation("unalign", start, turn - 1)
                if label == UNALIGNED
                else AssignmentOperation("assign", start, turn - 1, label)
            )
            start = turn
    return operations


def submit_gold(annotator, document: Document, labels: list[int]) -> None:
    annotation = annotation_apply(
        annotator=annotator, document=document, version=0, operations=gold_operations(labels)
    )
    annotation_submit(annotator=annotator, document=document, version=annotation.version)


def corpus_final_labels(document: Document) -> list[int]:
    turns = list(document.turns.order_by("position").values_list("text", flat=True))
    labels = public_meeting_labels(
        meeting_id=document.source.removeprefix("public_meetings:"), side="final", turn_texts=turns
    )
    assert labels is not None, "the raw files must read into the corpus's turns"
    return labels


def build_corpus() -> Corpus:
    lead, annotator = make_user("export-lead"), make_user("export-annotator")
    project = Project.objects.create(name="Exports", language="fr")
    Membership.objects.create(project=project, user=lead, role=Role.LEAD)
    Membership.objects.create(project=project, user=annotator, role=Role.ANNOTATOR)
    documents = [
        import_public_meeting(
            actor=lead, project=project, meeting_id=meeting_id(prefix), assignees=[annotator]
        )
        for prefix in (*GOLD_MEETINGS, PRE_ALIGNED_MEETING)
    ]
    for document in documents[: len(GOLD_MEETINGS)]:
        submit_gold(annotator, document, corpus_final_labels(document))
    return Corpus(lead, annotator, project, documents[: len(GOLD_MEETINGS)], documents[-1])


@pytest.fixture
def corpus(db) -> Corpus:
    return build_corpus()


NO_LENGTH_FILTER = {"min_words": 0, "max_words": 10**6, "min_sentences": 0, "max_sentences": 10**6}


def body(response) -> bytes:
    assert response.status_code == 200, response.content[:500] if not response.streaming else ""
    return b"".join(response.streaming_content) if response.streaming else response.content


def records(response) -> list[dict]:
    return [json.loads(line) for line in body(response).decode().splitlines()]


def upload(client, project, data) -> object:
    payload = data if isinstance(data, bytes) else json.dumps(data).encode()
    file = io.BytesIO(payload)
    file.name = "meetings.json"
    return client.post(
        f"/api/v1/projects/{project.pk}/documents/public-meetings/",
        {"file": file},
        format="multipart",
    )


def new_project(lead) -> Project:
    project = Project.objects.create(name="Imported")
    Membership.objects.create(project=project, user=lead, role=Role.LEAD)
    return project
