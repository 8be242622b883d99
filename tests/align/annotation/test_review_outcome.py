"""The residual error estimated after review: the logit shifts fitted on what annotators kept
and changed of the shown turns, against a log posterior maximised on a grid, and what the
shifted estimate does when a review agrees or disagrees with the calibration."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workers.align.annotation.logit_shift import CONFIDENCE_FLOOR, fit_logit_shift
from workers.align.annotation.review import (
    SHIFT_PRIOR_PRECISION,
    ReviewedDocument,
    doubts_after_review,
    estimated_residual_error,
    residual_error_after_review,
)


def log_posterior(
    logits: np.ndarray, kept: np.ndarray, shifts: np.ndarray, mean: float
) -> np.ndarray:
    """The log posterior of each of `shifts`, written out (one row of the grid per shift)."""
    probabilities = 1.0 / (1.0 + np.exp(-(logits[None, :] + shifts[:, None])))
    likelihood = np.where(kept, np.log(probabilities), np.log(1.0 - probabilities)).sum(axis=1)
    return likelihood - 0.5 * SHIFT_PRIOR_PRECISION * (shifts - mean) ** 2


def shift_by_grid(logits: np.ndarray, kept: np.ndarray, mean: float) -> float:
    grid = np.arange(mean - 12.0, mean + 12.0, 0.001)
    return float(grid[np.argmax(log_posterior(logits, kept, grid, mean))])


READ_TURNS = st.lists(
    st.tuples(st.floats(CONFIDENCE_FLOOR, 1 - CONFIDENCE_FLOOR), st.booleans()), max_size=25
)


@settings(max_examples=40, deadline=None)
@given(READ_TURNS, st.floats(-2, 2))
def test_the_shift_maximises_the_posterior_found_on_a_grid(turns, mean):
    confidences = np.array([c for c, _ in turns], dtype=np.float64)
    kept = np.array([k for _, k in turns], dtype=bool)
    logits = np.log(confidences / (1 - confidences))
    shift = fit_logit_shift(logits, kept, mean, SHIFT_PRIOR_PRECISION)
    assert shift == pytest.approx(shift_by_grid(logits, kept, mean), abs=2e-3)


def test_with_no_turn_read_the_estimate_is_the_plans():
    confidences = np.array([0.99, 0.9, 0.6, 0.97])
    nothing_read = np.zeros(4, dtype=bool)
    document = ReviewedDocument(confidences, nothing_read, nothing_read, nothing_read)
    assert residual_error_after_review([document]) == pytest.approx(
        estimated_residual_error(confidences, nothing_read)
    )


def test_read_turns_leave_no_doubt_and_unread_ones_keep_theirs_in_order():
    confidences = np.array([0.5, 0.95, 0.99, 0.8, 0.7])
    read = np.array([True, False, False, False, True])
    [doubts] = doubts_after_review([ReviewedDocument(confidences, read, read, read)])
    assert doubts[0] == 0
    assert doubts[4] == 0
    assert doubts[2] < doubts[1] < doubts[3]


def sampled_review(rng, confidences, read, right_rate_of):
    """A review whose read turns are kept with probability `right_rate_of(confidence)`."""
    kept = rng.random(len(confidences)) < right_rate_of(confidences)
    return ReviewedDocument(confidences, read, read, kept & read)


def test_a_review_that_agrees_with_the_calibration_leaves_the_estimate_near_the_plans():
    rng = np.random.default_rng(7)
    confidences = rng.uniform(0.6, 1.0, 4000)
    read = confidences < 0.85
    document = sampled_review(rng, confidences, read, lambda p: p)
    planned = estimated_residual_error(confidences, read)
    assert residual_error_after_review([document]) == pytest.approx(planned, rel=0.15)


def test_a_review_that_finds_more_errors_than_expected_raises_the_estimate():
    rng = np.random.default_rng(8)
    confidences = rng.uniform(0.6, 1.0, 4000)
    read = confidences < 0.85
    worse = sampled_review(rng, confidences, read, lambda p: p - 0.3)
    planned = estimated_residual_error(confidences, read)
    assert residual_error_after_review([worse]) > 1.5 * planned


def test_a_review_that_keeps_every_read_turn_lowers_the_estimate():
    confidences = np.linspace(0.6, 1.0, 400)
    read = confidences < 0.85
    planned = estimated_residual_error(confidences, read)
    kept_all = ReviewedDocument(confidences, read, read, read)
    assert residual_error_after_review([kept_all]) < planned


def test_each_document_is_shifted_by_its_own_review_drawn_towards_the_batchs():
    confidences = np.linspace(0.6, 1.0, 200)
    read = confidences < 0.85
    all_kept = ReviewedDocument(confidences, read, read, read)
    all_changed = ReviewedDocument(confidences, read, read, np.zeros(200, dtype=bool))
    kept_doubts, changed_doubts = doubts_after_review([all_kept, all_changed])
    [alone_doubts] = doubts_after_review([all_changed])
    assert changed_doubts.sum() > kept_doubts.sum()
    assert changed_doubts.sum() < alone_doubts.sum()


def test_certain_confidences_can_still_be_doubted():
    confidences = np.array([1.0, 1.0, 0.5, 0.5])
    read = np.array([False, False, True, True])
    nothing_kept = np.zeros(4, dtype=bool)
    [doubts] = doubts_after_review([ReviewedDocument(confidences, read, read, nothing_kept)])
    assert doubts[0] > 0


def test_a_turn_read_though_not_shown_is_fixed_but_says_nothing_of_the_calibration():
    confidences = np.linspace(0.6, 1.0, 200)
    shown = confidences < 0.85
    kept = shown.copy()
    also_read = shown.copy()
    also_read[[180, 190]] = True
    plain = ReviewedDocument(confidences, shown, shown, kept)
    with_order_fixes = ReviewedDocument(confidences, shown, also_read, kept)
    [plain_doubts] = doubts_after_review([plain])
    [fixed_doubts] = doubts_after_review([with_order_fixes])
    assert fixed_doubts[[180, 190]].tolist() == [0.0, 0.0]
    others = ~also_read
    assert fixed_doubts[others] == pytest.approx(plain_doubts[others])
