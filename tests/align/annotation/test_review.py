"""Confidence-guided review: which turns are shown, the residual error the rest leaves, and the
lowest threshold reaching a target, against definitions written as plain loops."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workers.align.annotation.review import (
    DEFAULT_RESIDUAL_ERROR_TARGET,
    ROUNDING,
    estimated_residual_error,
    plan_review,
    threshold_for_residual_error,
    turns_to_review,
)

CONFIDENCES = st.sampled_from([0.0, 0.1, 0.35, 0.5, 0.7, 0.9, 0.97, 1.0]) | st.floats(0, 1)
TURNS = st.lists(CONFIDENCES, max_size=30)
DOCUMENTS = st.lists(TURNS, max_size=4)


def shown_by_definition(confidences: list[float], threshold: float) -> list[bool]:
    return [confidence < threshold for confidence in confidences]


def pooled_error_by_definition(documents: list[list[float]], threshold: float) -> float:
    wrong = 0.0
    turns = 0
    for confidences in documents:
        shown = shown_by_definition(confidences, threshold)
        wrong += sum(1 - c for c, seen in zip(confidences, shown, strict=True) if not seen)
        turns += len(confidences)
    return wrong / turns if turns else 0.0


def lowest_threshold_by_brute_force(documents: list[list[float]], target: float) -> float:
    confidences = sorted({confidence for document in documents for confidence in document})
    above_all = float(np.nextafter(confidences[-1], np.inf)) if confidences else 0.0
    for threshold in sorted({0.0, *confidences, above_all}):
        if pooled_error_by_definition(documents, threshold) <= target + ROUNDING:
            return threshold
    raise AssertionError("showing every turn leaves no error")


def arrays(documents: list[list[float]]) -> list[np.ndarray]:
    return [np.array(document, dtype=np.float64) for document in documents]


@settings(max_examples=300, deadline=None)
@given(document=TURNS, threshold=st.floats(0, 1.01))
def test_shown_turns_are_the_uncertain_ones(document, threshold):
    shown = turns_to_review(np.array(document, dtype=np.float64), threshold)

    assert shown.dtype == bool
    assert shown.shape == (len(document),)
    assert shown.tolist() == shown_by_definition(document, threshold)


@settings(max_examples=300, deadline=None)
@given(documents=DOCUMENTS, target=st.sampled_from([0.0, 0.01, 0.02, 0.05, 0.2, 1.0]))
def test_the_lowest_threshold_is_the_brute_force_ones(documents, target):
    threshold = threshold_for_residual_error(arrays(documents), target)

    assert threshold == pytest.approx(lowest_threshold_by_brute_force(documents, target), abs=0)
    assert plan_review(arrays(documents), threshold).estimated_residual_error <= target + ROUNDING


@settings(max_examples=200, deadline=None)
@given(documents=DOCUMENTS, threshold=st.floats(0, 1.01))
def test_a_plan_pools_the_documents_by_turn(documents, threshold):
    turns = sum(map(len, documents))
    shown = sum(sum(shown_by_definition(document, threshold)) for document in documents)

    plan = plan_review(arrays(documents), threshold)

    assert plan.shown_share == pytest.approx(shown / turns if turns else 0.0)
    assert plan.estimated_residual_error == pytest.approx(
        pooled_error_by_definition(documents, threshold)
    )


def test_residual_error_counts_the_unread_turns_doubt_over_all_turns():
    confidences = np.array([0.9, 0.4, 1.0, 0.8])
    shown = np.array([False, True, False, False])

    assert estimated_residual_error(confidences, shown) == pytest.approx((0.1 + 0.0 + 0.2) / 4)


def test_a_confident_turn_across_a_boundary_from_an_uncertain_one_is_not_shown():
    """Segments 0 | 1 | unaligned | 2: only the uncertain turn 2 is read, not turn 1 across its
    boundary (docs/experiments/2026-11-28-boundary-neighbours.md)."""
    confidences = np.array([0.99, 0.99, 0.3, 0.99, 0.99, 0.99])

    assert turns_to_review(confidences, 0.5).tolist() == [False, False, True, False, False, False]


def test_no_turns_show_nothing_and_leave_no_error():
    empty = np.zeros(0)

    assert turns_to_review(empty, 0.9).tolist() == []
    assert estimated_residual_error(empty, empty.astype(bool)) == 0.0
    assert threshold_for_residual_error([], DEFAULT_RESIDUAL_ERROR_TARGET) == 0.0
    assert threshold_for_residual_error([empty], 0.0) == 0.0


def test_turns_all_certain_need_no_review():
    confidences = np.ones(5)

    assert threshold_for_residual_error([confidences], 0.0) == 0.0
    assert not turns_to_review(confidences, 1.0).any()


def test_threshold_zero_shows_nothing_and_above_the_largest_shows_everything():
    confidences = np.array([0.0, 0.6, 0.99])
    above_all = float(np.nextafter(0.99, 1.0))

    assert not turns_to_review(confidences, 0.0).any()
    assert turns_to_review(confidences, above_all).all()
    assert threshold_for_residual_error([confidences], 0.0) == above_all


def test_a_target_of_one_accepts_every_turn_unread():
    assert threshold_for_residual_error([np.array([0.1, 0.2])], 1.0) == 0.0
