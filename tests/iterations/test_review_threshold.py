"""The review threshold per iteration: the lead reads what a threshold implies (share of
turns shown, estimated residual error) and sets it; the editor reads which turns to show.
Per role through the API, on the real database."""

import numpy as np
import pytest

from backend.alignments.models import PreAlignment
from backend.iterations.models import Iteration
from tests.domain import build_world, evenly, make_document
from workers.align.annotation.error_runs import expected_wrong_after_following
from workers.align.annotation.review import (
    DEFAULT_RESIDUAL_ERROR_TARGET,
    ReviewedDocument,
    plan_review,
    residual_error_after_review,
    threshold_for_residual_error,
    turns_to_review,
)
from workers.align.annotation.spot_check import model_error_sd

CONFIDENCES = [0.99, 0.95, 0.3, 0.9, 0.97, 0.6, 0.99, 0.98, 0.85, 0.99]
SECOND_CONFIDENCES = [0.7, 0.99, 0.99, 0.99, 0.4, 0.99, 0.99, 0.92, 0.99, 0.99]


@pytest.fixture
def world(db):
    return batch_world()


def batch_world():
    """The domain's world with two documents of 10 turns in an open iteration, their
    pre-alignments' confidences CONFIDENCES and SECOND_CONFIDENCES."""
    world = build_world()
    iteration = Iteration.objects.create(project=world.project, number=2)
    second = make_document(
        world.project, name="second", assignees=[world.annotator], pre_alignment=evenly(10, 4)
    )
    for document, confidences in ((world.document, CONFIDENCES), (second, SECOND_CONFIDENCES)):
        PreAlignment.objects.filter(document=document).update(confidences=confidences)
        document.iteration = iteration
        document.save(update_fields=["iteration"])
    world.open_iteration = iteration
    return world


def review_url(world) -> str:
    return f"/api/v1/projects/{world.project.pk}/iterations/{world.open_iteration.pk}/review/"


def document_url(world, document=None) -> str:
    document = document or world.document
    return f"/api/v1/projects/{world.project.pk}/documents/{document.pk}/review/"


def batch():
    return [np.asarray(CONFIDENCES), np.asarray(SECOND_CONFIDENCES)]


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
def test_only_a_lead_reads_and_sets_the_review_threshold(world, who, expected):
    client = world.client(who)

    read = client.get(review_url(world))
    written = client.put(review_url(world), {"threshold": 0.5}, format="json")

    assert read.status_code == expected
    assert written.status_code == expected
    world.open_iteration.refresh_from_db()
    assert world.open_iteration.review_threshold == (0.5 if expected == 200 else None)


def test_the_lead_sees_auto_and_a_previewed_threshold_before_setting_it(world):
    confidences = batch()
    automatic = threshold_for_residual_error(confidences, DEFAULT_RESIDUAL_ERROR_TARGET)
    previewed = plan_review(confidences, 0.95)

    body = world.client("lead").get(review_url(world), {"threshold": 0.95}).json()

    assert body["threshold"] is None
    assert body["documents"] == 2
    assert body["turns"] == 20
    assert body["automatic"]["threshold"] == pytest.approx(automatic)
    assert body["current"] == body["automatic"]
    assert body["automatic"]["estimated_residual_error"] <= DEFAULT_RESIDUAL_ERROR_TARGET
    assert body["preview"]["shown_share"] == pytest.approx(previewed.shown_share)
    assert body["preview"]["estimated_residual_error"] == pytest.approx(
        previewed.estimated_residual_error
    )


def test_the_lead_reads_what_calibrated_the_batchs_confidences(world):
    lead = world.client("lead")
    assert lead.get(review_url(world)).json()["calibrations"] == {
        "learned": 0,
        "prior": 0,
        "none": 2,
    }

    PreAlignment.objects.filter(document=world.document).update(
        calibration=PreAlignment.Calibration.PRIOR
    )
    PreAlignment.objects.filter(document__name="second").update(
        calibration=PreAlignment.Calibration.LEARNED
    )

    assert lead.get(review_url(world)).json()["calibrations"] == {
        "learned": 1,
        "prior": 1,
        "none": 0,
    }


def test_the_lead_previews_the_threshold_that_meets_a_target(world):
    target = 0.05
    threshold = threshold_for_residual_error(batch(), target)

    body = world.client("lead").get(review_url(world), {"target": target}).json()

    assert body["preview"]["threshold"] == pytest.approx(threshold)
    assert body["preview"]["estimated_residual_error"] <= target
    assert body["preview"]["threshold"] < body["automatic"]["threshold"]
    assert body["threshold"] is None


def test_a_preview_of_a_threshold_and_a_target_at_once_is_refused(world):
    lead = world.client("lead")

    both = lead.get(review_url(world), {"threshold": 0.9, "target": 0.03})
    beyond = lead.get(review_url(world), {"target": 3})

    assert both.status_code == 400
    assert "not both" in str(both.json())
    assert beyond.status_code == 400
    assert "target" in beyond.json()


def test_setting_a_threshold_then_auto_again(world):
    lead = world.client("lead")

    body = lead.put(review_url(world), {"threshold": 0.5}, format="json").json()
    assert body["threshold"] == 0.5
    assert body["current"]["threshold"] == 0.5
    assert body["current"]["shown_share"] == pytest.approx(plan_review(batch(), 0.5).shown_share)

    assert (
        lead.put(review_url(world), {"threshold": None}, format="json").json()["threshold"] is None
    )
    world.open_iteration.refresh_from_db()
    assert world.open_iteration.review_threshold is None


def test_a_threshold_outside_0_to_1_is_refused(world):
    response = world.client("lead").put(review_url(world), {"threshold": 1.5}, format="json")

    assert response.status_code == 400
    assert "threshold" in response.json()


@pytest.mark.parametrize(
    ("change", "named"),
    [({"threshold": 0.5}, "threshold"), ({"spot_check": 0.1}, "spot check")],
)
def test_a_closed_iterations_review_settings_no_longer_change(world, change, named):
    response = world.client("lead").put(
        f"/api/v1/projects/{world.project.pk}/iterations/{world.iteration.pk}/review/",
        change,
        format="json",
    )

    assert response.status_code == 409
    assert f"closed: its {named} can no longer change" in response.json()["detail"]


def test_the_annotator_reads_the_turns_to_review_at_the_iterations_threshold(world):
    world.open_iteration.review_threshold = 0.9
    world.open_iteration.save()
    expected = turns_to_review(np.asarray(CONFIDENCES), 0.9)

    body = world.client("annotator").get(document_url(world)).json()

    assert body["threshold"] == 0.9
    assert body["automatic"] is False
    assert body["turns"] == np.flatnonzero(expected).tolist()


def test_under_auto_the_document_shows_the_turns_of_the_batchs_auto_threshold(world):
    automatic = threshold_for_residual_error(batch(), DEFAULT_RESIDUAL_ERROR_TARGET)
    expected = turns_to_review(np.asarray(CONFIDENCES), automatic)

    body = world.client("annotator").get(document_url(world)).json()

    assert body["automatic"] is True
    assert body["turns"] == np.flatnonzero(expected).tolist()


def test_a_document_outside_an_iteration_has_no_review_mode(world):
    outside = make_document(world.project, name="outside", pre_alignment=evenly(10, 4))

    body = world.client("lead").get(document_url(world, outside)).json()

    assert body == {
        "iteration": None,
        "threshold": None,
        "automatic": False,
        "turns": [],
        "estimated_residual_error": None,
        "spot_check": None,
        "spot_check_turns": [],
    }


@pytest.mark.parametrize(
    ("who", "expected"),
    [("annotator", 200), ("lead", 200), ("second_annotator", 404), ("outsider", 403)],
)
def test_who_reads_a_documents_turns_to_review(world, who, expected):
    assert world.client(who).get(document_url(world)).status_code == expected


def annotation_url(world) -> str:
    return f"/api/v1/projects/{world.project.pk}/documents/{world.document.pk}/annotation/"


def save_a_review(world, reviewed_turns: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """The annotator unaligns turn 2 and saves with `reviewed_turns` read; the turns read, and
    those kept, as the review's outcome."""
    saved = world.client("annotator").post(
        annotation_url(world),
        {
            "version": 0,
            "operations": [{"action": "unalign", "first_turn": 2, "last_turn": 2}],
            "reviewed_turns": reviewed_turns,
        },
        format="json",
    )
    assert saved.status_code == 200, saved.json()
    read = np.zeros(10, dtype=bool)
    read[reviewed_turns] = True
    kept = read.copy()
    kept[2] = False
    return read, kept


def submit_accepting_the_rest(world) -> None:
    submitted = world.client("annotator").post(
        annotation_url(world) + "submit/", {"version": 1, "accept_unreviewed": True}, format="json"
    )
    assert submitted.status_code == 200, submitted.json()


def test_the_review_of_a_submitted_document_re_estimates_its_residual_error(world):
    lead = world.client("lead")
    assert lead.get(review_url(world)).json()["after_review"] is None
    read, kept = save_a_review(world, reviewed_turns=[2, 5, 8])
    assert lead.get(review_url(world)).json()["after_review"] is None
    submit_accepting_the_rest(world)

    after = lead.get(review_url(world)).json()["after_review"]

    confidences = batch()
    automatic = threshold_for_residual_error(confidences, DEFAULT_RESIDUAL_ERROR_TARGET)
    shown = turns_to_review(confidences[0], automatic)
    expected = residual_error_after_review([ReviewedDocument(confidences[0], shown, read, kept)])
    assert after["documents"] == 1
    assert after["turns"] == 10
    assert after["turns_read"] == 3
    evidence = shown & read
    assert after["shown_read"] == evidence.sum() > 0
    assert after["read_kept"] == pytest.approx(kept[evidence].mean())
    assert after["read_expected_kept"] == pytest.approx(confidences[0][evidence].mean())
    assert after["estimated_residual_error"] == pytest.approx(expected)
    assert after["estimated_residual_error_sd"] == model_error_sd(1) > model_error_sd(4)
    unread = ~read
    assert after["estimated_residual_error"] != pytest.approx(
        float((1 - np.asarray(CONFIDENCES)[unread]).sum()) / 10
    )


def test_where_the_decision_measured_how_errors_run_auto_counts_the_runs_annotators_follow(world):
    """Pre-alignments whose calibrating decision measured a run correlation: the editor shows
    the turns next to each change, so `auto`, the plans and the estimate after review count
    the runs the annotator follows; its threshold shows fewer turns than reading the shown
    turns only would need."""
    correlations = [0.6, 0.4]
    for document, correlation in zip(
        (world.document, world.document.project.documents.get(name="second")),
        correlations,
        strict=True,
    ):
        PreAlignment.objects.filter(document=document).update(run_correlation=correlation)
    automatic = threshold_for_residual_error(batch(), DEFAULT_RESIDUAL_ERROR_TARGET, correlations)
    shown_only = threshold_for_residual_error(batch(), DEFAULT_RESIDUAL_ERROR_TARGET)
    lead = world.client("lead")

    body = lead.get(review_url(world), {"threshold": 0.95}).json()

    assert body["automatic"]["threshold"] == pytest.approx(automatic)
    assert automatic < shown_only
    assert body["preview"]["estimated_residual_error"] == pytest.approx(
        plan_review(batch(), 0.95, correlations).estimated_residual_error
    )
    document = world.client("annotator").get(document_url(world)).json()
    shown = turns_to_review(np.asarray(CONFIDENCES), automatic)
    assert document["turns"] == np.flatnonzero(shown).tolist()
    assert document["estimated_residual_error"] == pytest.approx(
        expected_wrong_after_following(np.asarray(CONFIDENCES), shown, 0.6) / 10
    )
    read, kept = save_a_review(world, reviewed_turns=[1, 2, 3])
    submit_accepting_the_rest(world)

    after = lead.get(review_url(world)).json()["after_review"]

    reviewed = ReviewedDocument(np.asarray(CONFIDENCES), shown, read, kept, 0.6)
    assert after["estimated_residual_error"] == pytest.approx(
        residual_error_after_review([reviewed])
    )
    assert after["estimated_residual_error"] != pytest.approx(
        residual_error_after_review([ReviewedDocument(np.asarray(CONFIDENCES), shown, read, kept)])
    )
