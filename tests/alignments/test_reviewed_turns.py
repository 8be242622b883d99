"""Turns reviewed and turns accepted without review: what the editor's saves record, what a
submission from the review mode stores, and how the gold and the public_meetings export carry
it, on the real database through the API."""

import json

import pytest

from backend.alignments.models import Annotation
from backend.curation.models import Gold
from backend.projects.models import Membership, Role
from tests.domain import make_user


def url(world, suffix: str = "") -> str:
    return f"/api/v1/projects/{world.project.pk}/documents/{world.document.pk}/annotation/{suffix}"


@pytest.fixture
def annotator(world):
    return world.client("annotator")


def reviewed_turns(annotation: Annotation) -> list[int]:
    return [turn for turn, flag in enumerate(annotation.reviewed) if flag]


def test_a_save_records_the_turns_reviewed_and_every_changed_turn(world, annotator):
    first = annotator.post(url(world), {"version": 0, "reviewed_turns": [0, 1]}, format="json")
    assert first.status_code == 200, first.json()
    assert first.json()["reviewed"][:3] == [True, True, False]

    second = annotator.post(
        url(world),
        {
            "version": 1,
            "operations": [{"action": "unalign", "first_turn": 9, "last_turn": 9}],
            "reviewed_turns": [4],
        },
        format="json",
    )
    assert second.status_code == 200, second.json()

    annotation = Annotation.objects.get()
    assert reviewed_turns(annotation) == [0, 1, 4, 9]
    assert annotation.changed[9]
    assert not annotation.changed[4]


def test_a_save_with_neither_edits_nor_reviewed_turns_is_refused(world, annotator):
    response = annotator.post(url(world), {"version": 0, "operations": []}, format="json")

    assert response.status_code == 400
    assert "operations" in response.json()
    assert not Annotation.objects.exists()


def test_a_reviewed_turn_outside_the_document_is_refused_and_nothing_is_saved(world, annotator):
    response = annotator.post(url(world), {"version": 0, "reviewed_turns": [3, 10]}, format="json")

    assert response.status_code == 400
    assert "turn 10 is not one of this document's turns 0..9" in response.json()["detail"]
    assert not Annotation.objects.exists()


def test_accepting_the_rest_marks_the_turns_neither_reviewed_nor_changed(world, annotator):
    annotator.post(
        url(world),
        {
            "version": 0,
            "operations": [{"action": "unalign", "first_turn": 9, "last_turn": 9}],
            "reviewed_turns": [0],
        },
        format="json",
    )

    submitted = annotator.post(
        url(world, "submit/"),
        {"version": 1, "reviewed_turns": [5], "accept_unreviewed": True},
        format="json",
    )

    assert submitted.status_code == 200, submitted.json()
    unread = [turn for turn, flag in enumerate(submitted.json()["accepted_without_review"]) if flag]
    assert unread == [1, 2, 3, 4, 6, 7, 8]
    gold = Gold.objects.get(document=world.document)
    assert [turn for turn, flag in enumerate(gold.accepted_without_review) if flag] == unread


def test_a_plain_submission_accepts_nothing_unread(world, annotator):
    annotator.post(url(world), {"version": 0, "reviewed_turns": [0]}, format="json")

    submitted = annotator.post(url(world, "submit/"), {"version": 1}, format="json")

    assert submitted.json()["accepted_without_review"] == []
    assert Gold.objects.get(document=world.document).accepted_without_review == []


def test_reopening_takes_the_acceptance_back(world, annotator):
    annotator.post(url(world, "submit/"), {"version": 0, "accept_unreviewed": True}, format="json")
    annotation = Annotation.objects.get()
    assert all(annotation.accepted_without_review)

    reopened = annotator.post(url(world, "reopen/"), {"version": annotation.version}, format="json")

    assert reopened.status_code == 200, reopened.json()
    assert reopened.json()["accepted_without_review"] == []
    assert not Gold.objects.filter(document=world.document).exists()


def test_agreed_gold_counts_a_turn_unread_only_when_every_annotator_accepted_it_unread(world):
    second = make_user("second")
    Membership.objects.create(project=world.project, user=second, role=Role.ANNOTATOR)
    world.document.assignees.add(second)
    first_client = world.client("annotator")
    first_client.post(url(world), {"version": 0, "reviewed_turns": [0, 1, 2]}, format="json")
    first_client.post(
        url(world, "submit/"), {"version": 1, "accept_unreviewed": True}, format="json"
    )
    second_client = world.client("annotator")
    second_client.force_login(second)
    second_client.post(url(world), {"version": 0, "reviewed_turns": [2, 3]}, format="json")

    second_client.post(
        url(world, "submit/"), {"version": 1, "accept_unreviewed": True}, format="json"
    )

    gold = Gold.objects.get(document=world.document)
    assert gold.rule == "agreed"
    assert [turn for turn, flag in enumerate(gold.accepted_without_review) if flag] == [
        4,
        5,
        6,
        7,
        8,
        9,
    ]


def test_the_public_meetings_export_says_per_gold_turn_whether_it_was_accepted_unread(
    world, annotator
):
    annotator.post(url(world), {"version": 0, "reviewed_turns": [0, 1]}, format="json")
    annotator.post(url(world, "submit/"), {"version": 1, "accept_unreviewed": True}, format="json")

    response = world.client("lead").get(
        f"/api/v1/projects/{world.project.pk}/exports/public-meetings.json"
    )

    assert response.status_code == 200
    exported = json.loads(b"".join(response.streaming_content))
    (entry,) = [value for value in exported.values() if value["tandem"]["name"] == "assigned"]
    flags = [turn["accepted_without_review"] for turn in entry["final"]["ctm"]]
    assert flags == [False, False] + [True] * 8
    assert all("accepted_without_review" not in turn for turn in entry["initial"]["ctm"])


def test_reviewed_turns_alone_add_no_version_so_another_windows_copy_stays_current(
    world, annotator
):
    annotator.post(
        url(world),
        {"version": 0, "operations": [{"action": "unalign", "first_turn": 9, "last_turn": 9}]},
        format="json",
    )

    visited = annotator.post(url(world), {"version": 1, "reviewed_turns": [3]}, format="json")
    from_an_older_window = annotator.post(
        url(world), {"version": 0, "reviewed_turns": [4]}, format="json"
    )
    edited = annotator.post(
        url(world),
        {"version": 1, "operations": [{"action": "unalign", "first_turn": 8, "last_turn": 8}]},
        format="json",
    )

    assert visited.json()["version"] == 1
    assert from_an_older_window.status_code == 200
    assert edited.status_code == 200, edited.json()
    assert reviewed_turns(Annotation.objects.get()) == [3, 4, 8, 9]


def test_the_pair_exports_say_per_turn_whether_it_was_accepted_unread(world, annotator):
    annotator.post(url(world), {"version": 0, "reviewed_turns": [0, 1]}, format="json")
    annotator.post(url(world, "submit/"), {"version": 1, "accept_unreviewed": True}, format="json")

    response = world.client("lead").get(
        f"/api/v1/projects/{world.project.pk}/exports/pairs.jsonl",
        {"min_words": 0, "min_sentences": 0},
    )

    assert response.status_code == 200
    records = [json.loads(line) for line in b"".join(response.streaming_content).splitlines()]
    flags = {
        turn: flag
        for record in records
        if record["document_id"] == world.document.pk
        for turn, flag in zip(
            record["turn_positions"], record["turns_accepted_without_review"], strict=True
        )
    }
    assert flags, "the submitted document exported no pair"
    assert all(flags[turn] == (turn >= 2) for turn in flags)
