"""The spot check after review through the API, on the real database: the lead sets its share
on the iteration, the server draws it for an annotator whose review of the shown turns is done,
a submission accepting the rest waits for the drawn turns to be read, and the iteration's
review re-estimates the residual error with what the check found once every submitted
document was checked."""

import math

import numpy as np
import pytest

from backend.alignments.models import Annotation
from backend.iterations.models import Iteration
from tests.iterations.test_review_threshold import (
    CONFIDENCES,
    annotation_url,
    batch,
    batch_world,
    document_url,
    review_url,
)
from workers.align.annotation.review import (
    ReviewedDocument,
    plan_review,
    residual_error_after_review,
    turns_to_review,
)
from workers.align.annotation.spot_check import (
    SPOT_CHECK_SHARE,
    SpotCheckedDocument,
    model_error_sd,
    residual_error_spot_checked,
    spot_check_precision,
    spot_checked_error_sd,
)

THRESHOLD = 0.5
SHARE = 0.5
SHOWN = np.flatnonzero(turns_to_review(np.asarray(CONFIDENCES), THRESHOLD)).tolist()


def spot_check_url(world, document=None) -> str:
    return document_url(world, document) + "spot-check/"


@pytest.fixture
def world(db):
    return batch_world()


@pytest.fixture
def checked_world(world):
    Iteration.objects.filter(pk=world.open_iteration.pk).update(
        review_threshold=THRESHOLD, review_spot_check=SHARE
    )
    return world


def save(world, version: int, reviewed_turns: list[int], unaligned: list[int] = ()) -> dict:
    response = world.client("annotator").post(
        annotation_url(world),
        {
            "version": version,
            "operations": [
                {"action": "unalign", "first_turn": turn, "last_turn": turn} for turn in unaligned
            ],
            "reviewed_turns": reviewed_turns,
        },
        format="json",
    )
    assert response.status_code == 200, response.json()
    return response.json()


def submit_accepting_the_rest(world, version: int):
    return world.client("annotator").post(
        annotation_url(world) + "submit/",
        {"version": version, "accept_unreviewed": True},
        format="json",
    )


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("lead", 200),
        ("admin", 200),
        ("annotator", 403),
        ("curator", 403),
        ("outsider", 403),
        ("anonymous", 401),
    ],
)
def test_only_a_lead_sets_the_spot_check(world, who, expected):
    response = world.client(who).put(review_url(world), {"spot_check": 0.1}, format="json")

    assert response.status_code == expected
    world.open_iteration.refresh_from_db()
    assert world.open_iteration.review_spot_check == (0.1 if expected == 200 else None)


def test_the_spot_check_is_set_apart_from_the_threshold_and_turned_off_with_null(world):
    lead = world.client("lead")
    lead.put(review_url(world), {"threshold": 0.5}, format="json")

    body = lead.put(review_url(world), {"spot_check": 0.05}, format="json").json()
    assert (body["threshold"], body["spot_check"]) == (0.5, 0.05)
    body = lead.put(review_url(world), {"spot_check": None}, format="json").json()
    assert (body["threshold"], body["spot_check"]) == (0.5, None)


@pytest.mark.parametrize(("share", "drawn_share"), [(None, SPOT_CHECK_SHARE), (0.5, 0.5)])
def test_the_review_says_what_a_spot_check_would_draw_at_the_threshold_and_buy(
    world, share, drawn_share
):
    """Two documents of 10 turns at THRESHOLD: the 2 shown leave 18 unread, so a check of half
    of them draws 9 and the suggested 5 % one; the precision is the engine's on the plan."""
    Iteration.objects.filter(pk=world.open_iteration.pk).update(
        review_threshold=THRESHOLD, review_spot_check=share
    )
    plan = plan_review(batch(), THRESHOLD)

    body = world.client("lead").get(review_url(world)).json()

    expected = spot_check_precision(
        documents=2,
        turns=20,
        unread=18,
        expected_wrong=plan.estimated_residual_error * 20,
        share=drawn_share,
    )
    assert round(plan.shown_share * 20) == 2
    assert body["spot_check_precision"] == {
        "share": drawn_share,
        "turns_drawn": expected.turns_drawn,
        "model_error_sd": pytest.approx(expected.model_error_sd),
        "combined_error_sd": pytest.approx(expected.combined_error_sd),
    }
    assert body["spot_check_precision"]["turns_drawn"] == (9 if share else 1)
    assert 0 < expected.combined_error_sd < expected.model_error_sd


@pytest.mark.parametrize(
    ("body", "named"),
    [({"spot_check": 0}, "spot_check"), ({"spot_check": 1.5}, "spot_check"), ({}, "Send")],
)
def test_a_spot_check_outside_0_to_1_or_an_empty_change_is_refused(world, body, named):
    response = world.client("lead").put(review_url(world), body, format="json")

    assert response.status_code == 400
    assert named in str(response.json())
    world.open_iteration.refresh_from_db()
    assert world.open_iteration.review_spot_check is None


def test_the_spot_check_is_drawn_after_the_review_from_the_turns_left_unread(checked_world):
    world = checked_world
    annotator = world.client("annotator")
    assert annotator.get(document_url(world)).json()["spot_check"] == SHARE
    save(world, 0, reviewed_turns=[0])

    early = annotator.post(spot_check_url(world))
    assert early.status_code == 409
    assert f"turn {SHOWN[0]}" in early.json()["detail"]
    assert early.json()["turns"] == SHOWN
    assert not Annotation.objects.get(document=world.document).spot_check

    save(world, 1, reviewed_turns=SHOWN)
    drawn = annotator.post(spot_check_url(world))

    assert drawn.status_code == 200, drawn.json()
    pool = sorted(set(range(10)) - {0, *SHOWN})
    turns = drawn.json()["spot_check_turns"]
    assert len(turns) == math.ceil(SHARE * len(pool))
    assert set(turns) <= set(pool)
    assert turns == sorted(set(turns))
    check = Annotation.objects.get(document=world.document).spot_check
    assert check["pool"] == pool
    assert check["drawn"] == turns
    assert check["share"] == SHARE
    again = annotator.post(spot_check_url(world)).json()["spot_check_turns"]
    assert again == turns
    assert annotator.get(document_url(world)).json()["spot_check_turns"] == turns


@pytest.mark.parametrize(
    ("who", "expected"),
    [("second_annotator", 404), ("outsider", 403), ("lead", 403), ("anonymous", 401)],
)
def test_only_the_assignee_draws_their_spot_check(checked_world, who, expected):
    response = checked_world.client(who).post(spot_check_url(checked_world))

    assert response.status_code == expected


def test_no_spot_check_is_drawn_where_the_iteration_asks_for_none(world):
    save(world, 0, reviewed_turns=list(range(10)))

    response = world.client("annotator").post(spot_check_url(world))

    assert response.status_code == 409
    assert "asks for none" in response.json()["detail"]


def test_the_rest_is_accepted_only_once_the_drawn_turns_are_read(checked_world):
    world = checked_world
    save(world, 0, reviewed_turns=SHOWN)
    turns = world.client("annotator").post(spot_check_url(world)).json()["spot_check_turns"]

    refused = submit_accepting_the_rest(world, 1)

    assert refused.status_code == 409
    assert "spot check are not read" in refused.json()["detail"]
    assert Annotation.objects.get(document=world.document).submitted_at is None
    save(world, 1, reviewed_turns=turns)
    assert submit_accepting_the_rest(world, 1).status_code == 200
    again = world.client("annotator").post(spot_check_url(world))
    assert again.status_code == 200
    assert again.json()["spot_check_turns"] == turns


def test_no_spot_check_is_drawn_on_a_submission_or_before_any_review(checked_world):
    world = checked_world
    annotator = world.client("annotator")

    before = annotator.post(spot_check_url(world))
    save(world, 0, reviewed_turns=SHOWN)
    submit_accepting_the_rest(world, 1)
    after = annotator.post(spot_check_url(world))

    assert before.status_code == 409
    assert "no annotation of assigned yet" in before.json()["detail"]
    assert after.status_code == 409
    assert "is submitted: reopen it" in after.json()["detail"]
    assert not Annotation.objects.get(document=world.document).spot_check


def test_the_iterations_review_weighs_in_the_spot_checks_once_every_document_was_checked(
    checked_world,
):
    world = checked_world
    lead = world.client("lead")
    save(world, 0, reviewed_turns=SHOWN)
    turns = world.client("annotator").post(spot_check_url(world)).json()["spot_check_turns"]
    before = Annotation.objects.get(document=world.document).assignments
    found_wrong = turns[0]
    save(world, 1, reviewed_turns=turns, unaligned=[found_wrong])
    assert submit_accepting_the_rest(world, 2).status_code == 200

    after = lead.get(review_url(world)).json()["after_review"]

    confidences = np.asarray(CONFIDENCES)
    read = np.zeros(10, dtype=bool)
    read[[*SHOWN, *turns]] = True
    kept = read.copy()
    kept[found_wrong] = False
    reviewed = ReviewedDocument(confidences, turns_to_review(confidences, THRESHOLD), read, kept)
    model = residual_error_after_review([reviewed])
    pool = np.ones(10, dtype=bool)
    pool[SHOWN] = False
    drawn = np.zeros(10, dtype=bool)
    drawn[turns] = True
    labels_after = Annotation.objects.get(document=world.document).assignments
    check = SpotCheckedDocument.from_labels(pool, drawn, before, labels_after, confidences)
    assert check.fixed.sum() == 1
    assert after["estimated_residual_error"] == pytest.approx(model)
    assert after["spot_checked_documents"] == 1
    assert after["spot_checked_turns"] == len(turns)
    assert after["estimated_residual_error_spot_checked"] == pytest.approx(
        residual_error_spot_checked(model * 10, 10, [check])
    )
    assert after["estimated_residual_error_spot_checked"] != pytest.approx(model)
    assert after["estimated_residual_error_spot_checked_sd"] == pytest.approx(
        spot_checked_error_sd(10, [check])
    )
    assert 0 < after["estimated_residual_error_spot_checked_sd"] < model_error_sd(1)


def test_a_document_accepted_unread_without_its_spot_check_leaves_no_spot_checked_estimate(
    checked_world,
):
    world = checked_world
    save(world, 0, reviewed_turns=SHOWN)

    assert submit_accepting_the_rest(world, 1).status_code == 200
    after = world.client("lead").get(review_url(world)).json()["after_review"]

    assert after["documents"] == 1
    assert after["spot_checked_documents"] == 0
    assert after["estimated_residual_error_spot_checked"] is None
    assert after["estimated_residual_error_spot_checked_sd"] is None
