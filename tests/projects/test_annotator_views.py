"""What an annotator may see of an iteration: the documents assigned to them, and on those
only their own annotation and accuracy record. The hardening probe found the whole batch in
`GET .../iterations/{id}/`: another document's name and assignee, and another annotator's
turns_changed and seconds_spent, the figures the lead-only effort dashboard refuses them."""

import json
import re

import pytest

from backend.alignments.services.annotations import (
    AssignmentOperation,
    annotation_apply,
    annotation_submit,
)
from backend.projects.models import Membership, Role
from tests.domain import build_world, make_user
from tests.iterations.builders import annotating_iteration

OTHERS_SECONDS = 4321


def shows_others_seconds(text: str) -> bool:
    """The number on its own: a timestamp's microseconds may well end in the same digits."""
    return re.search(rf"(?<![\d.]){OTHERS_SECONDS}(?![\d.])", text) is not None


@pytest.fixture
def batch(db):
    """Iteration 2 of project A: `document` for the annotator, `unassigned_document` for a
    second annotator, both annotated and submitted."""
    world = build_world()
    other = make_user("other-annotator")
    Membership.objects.create(project=world.project, user=other, role=Role.ANNOTATOR)
    world.unassigned_document.assignees.set([other])
    iteration = annotating_iteration(world.project, [world.document, world.unassigned_document])
    edit = [AssignmentOperation("unalign", 0, 1)]
    for who, document, seconds in (
        (world.annotator, world.document, 60),
        (other, world.unassigned_document, OTHERS_SECONDS),
    ):
        annotation = annotation_apply(
            annotator=who, document=document, version=0, operations=edit, seconds_spent=seconds
        )
        annotation_submit(annotator=who, document=document, version=annotation.version)
    return world, other, iteration


def detail(world, who: str, iteration) -> dict:
    response = world.client(who).get(
        f"/api/v1/projects/{world.project.pk}/iterations/{iteration.pk}/"
    )
    assert response.status_code == 200
    return response.json()


def test_an_annotator_sees_only_their_documents_and_annotations(batch):
    world, other, iteration = batch

    seen = detail(world, "annotator", iteration)

    assert [document["id"] for document in seen["documents"]] == [world.document.pk]
    assert [a["annotator"] for a in seen["documents"][0]["annotations"]] == [world.annotator.pk]
    text = json.dumps(seen)
    assert "unassigned" not in text, "the other document's name"
    assert not shows_others_seconds(text), "the other annotator's time"
    assert other.pk not in seen["documents"][0]["assignees"]


def test_a_lead_sees_the_whole_batch(batch):
    world, other, iteration = batch

    seen = detail(world, "lead", iteration)

    assert {document["id"] for document in seen["documents"]} == {
        world.document.pk,
        world.unassigned_document.pk,
    }
    annotations = [a for document in seen["documents"] for a in document["annotations"]]
    assert {a["annotator"]: a["seconds_spent"] for a in annotations} == {
        world.annotator.pk: 60,
        other.pk: OTHERS_SECONDS,
    }


def test_after_closing_an_annotator_sees_only_their_own_record_and_accuracy(batch):
    world, _, iteration = batch
    closed = world.client("lead").post(
        f"/api/v1/projects/{world.project.pk}/iterations/{iteration.pk}/close/",
        {"tune": False},
        format="json",
    )
    assert closed.status_code == 200, closed.json()
    assert closed.json()["accuracy"]["segment_accuracy"]["count"] == 2

    seen = detail(world, "annotator", iteration)

    assert [document["id"] for document in seen["documents"]] == [world.document.pk]
    assert seen["documents"][0]["record"]["annotator"] == world.annotator.pk
    assert seen["documents"][0]["record"]["seconds_spent"] == 60
    assert {summary["count"] for summary in seen["accuracy"].values()} == {1}
    assert not shows_others_seconds(json.dumps(seen))
