"""Adjudication through the API: the disagreement payload, edits with optimistic concurrency,
completing into gold, reopening, and the close that ends it. Per-role access is in
tests/projects/test_permission_matrix.py; here the curator and the lead do the work."""

import pytest

from backend.curation.models import Adjudication, Gold, GoldRule
from backend.iterations.models import AccuracyRecord
from tests.curation.test_gold_lifecycle import close, submit
from tests.iterations.builders import annotating_iteration


def url(world, suffix: str = "") -> str:
    return (
        f"/api/v1/projects/{world.project.pk}/documents/{world.document.pk}/adjudication/{suffix}"
    )


def take(client, world, version: int, first: int, last: int, segment: int):
    return client.post(
        url(world),
        {"version": version, "seconds_spent": 12, "operations": [
            {"action": "assign", "first_turn": first, "last_turn": last, "segment": segment}]},
        format="json",
    )  # fmt: skip


@pytest.fixture
def disputed(world):
    """The world's document, assigned to two annotators who disagree on turns 0-2."""
    world.document.assignees.set([world.annotator, world.second_annotator])
    iteration = annotating_iteration(world.project, [world.document])
    submit(world, "annotator", world.document, 0)
    submit(world, "second_annotator", world.document, 1)
    return iteration


def test_the_payload_puts_both_submissions_side_by_side(world, disputed):
    body = world.client("curator").get(url(world)).json()

    assert [a["username"] for a in body["annotations"]] == ["annotator", "second-annotator"]
    assert [a["assignments"][:3] for a in body["annotations"]] == [[0, 0, 0], [1, 1, 1]]
    assert body["gold"] == {"state": "needs_adjudication", "rule": None, "waiting_for": []}
    adjudication = body["adjudication"]
    assert (adjudication["version"], adjudication["id"]) == (0, None)
    assert adjudication["assignments"] == body["annotations"][0]["assignments"]
    assert len(body["turns"]) == len(adjudication["assignments"]) == 10
    assert not Adjudication.objects.exists(), "reading writes nothing"


def test_the_disputed_document_is_listed_until_its_adjudication_completes(world, disputed):
    """The list the lead's documents table marks "needs adjudication" from."""
    curator = world.client("curator")
    listed = f"/api/v1/projects/{world.project.pk}/needs-adjudication/"
    assert curator.get(listed).json() == {"documents": [world.document.pk]}

    assert take(curator, world, 0, 0, 2, 1).status_code == 200
    assert curator.get(listed).json() == {"documents": [world.document.pk]}, (
        "a draft decides nothing"
    )
    completed = curator.post(url(world, "complete/"), {"version": 1, "seconds_spent": 8})
    assert completed.status_code == 200, completed.json()
    assert curator.get(listed).json() == {"documents": []}


def test_edit_complete_close_and_the_record_names_the_curator(world, disputed):
    curator = world.client("curator")

    edited = take(curator, world, 0, 0, 2, 1)
    assert edited.status_code == 200, edited.json()
    assert edited.json()["assignments"][:3] == [1, 1, 1]
    assert edited.json()["changed"][:4] == [True, True, True, False]
    completed = curator.post(url(world, "complete/"), {"version": 1, "seconds_spent": 8})
    assert completed.status_code == 200, completed.json()
    assert completed.json()["completed_at"]

    gold = Gold.objects.get(document=world.document)
    assert (gold.rule, gold.labels[:3]) == (GoldRule.ADJUDICATED, [1, 1, 1])
    assert close(world, disputed).status_code == 200
    record = AccuracyRecord.objects.get()
    assert record.gold_rule == GoldRule.ADJUDICATED
    assert record.annotator_id == world.curator.pk
    assert record.seconds_spent == 30 + 30 + 20, "both annotators' time and the curator's"

    late = take(curator, world, 2, 3, 3, 1)
    assert late.status_code == 409
    assert "can no longer be adjudicated" in late.json()["detail"]


def test_a_stale_version_is_refused_with_the_current_state_and_nothing_is_lost(world, disputed):
    take(world.client("curator"), world, 0, 0, 2, 1)

    stale = take(world.client("lead"), world, 0, 0, 0, 0)

    assert stale.status_code == 409
    assert "stale" in stale.json()["detail"]
    assert stale.json()["current"]["version"] == 1
    assert stale.json()["current"]["assignments"][:3] == [1, 1, 1]
    assert Adjudication.objects.get().assignments[:3] == [1, 1, 1]


def test_a_completed_adjudication_is_reopened_before_it_changes(world, disputed):
    lead = world.client("lead")
    assert lead.post(url(world, "complete/"), {"version": 0}).status_code == 200

    refused = take(lead, world, 2, 0, 0, 1)
    assert refused.status_code == 409
    assert "Reopen it" in refused.json()["detail"]

    reopened = lead.post(url(world, "reopen/"), {"version": 2})
    assert reopened.status_code == 200
    assert reopened.json()["completed_at"] is None
    assert not Gold.objects.exists(), "the submissions disagree again"


def test_order_breaking_edits_are_refused_and_write_nothing(world, disputed):
    refused = world.client("curator").post(
        url(world),
        {"version": 0, "operations": [
            {"action": "assign", "first_turn": 9, "last_turn": 9, "segment": 0}]},
        format="json",
    )  # fmt: skip

    assert refused.status_code == 400
    assert refused.json()["turn"] == 9
    assert not Adjudication.objects.exists()


def test_nothing_to_adjudicate_before_a_submission(world):
    refused = take(world.client("lead"), world, 0, 0, 0, 0)

    assert refused.status_code == 409
    assert "no submission to adjudicate" in refused.json()["detail"]


def test_a_lead_not_assigned_reads_the_assignees_work_instead_of_a_copy(world, disputed):
    editor = f"/api/v1/projects/{world.project.pk}/documents/{world.document.pk}/editor/"

    as_lead = world.client("lead").get(editor).json()
    as_annotator = world.client("annotator").get(editor).json()

    assert as_lead["may_annotate"] is False
    assert [a["username"] for a in as_lead["annotations"]] == ["annotator", "second-annotator"]
    assert as_lead["annotations"][1]["submitted_at"]
    assert as_annotator["may_annotate"] is True
    assert as_annotator["annotations"] == []
    assert sorted(as_annotator["assignees"]) == sorted(
        [world.annotator.pk, world.second_annotator.pk]
    )


def test_a_version_above_what_a_column_holds_is_refused_by_name(world, disputed):
    """The adjudication's writes share the annotation's input checks: a version no column can
    hold is a 400 naming `version`, not an OverflowError from the database driver."""
    curator = world.client("curator")

    edit = take(curator, world, 2**70, 0, 2, 1)
    complete = curator.post(url(world, "complete/"), {"version": 2**70}, format="json")

    assert edit.status_code == complete.status_code == 400
    assert "version" in edit.json()
    assert "version" in complete.json()
    assert not Adjudication.objects.exists()
