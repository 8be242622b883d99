"""The generic statistics: isotonic regression against its naive definition, the
interpolated map, a map stored before it had centres, and AUROC and calibration error by
hand."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workers.align.learning.statistics import (
    Isotonic,
    auroc,
    expected_calibration_error,
    fit_isotonic,
)


def naive_isotonic(scores: np.ndarray, outcomes: np.ndarray) -> np.ndarray:
    """The least-squares non-decreasing fit, per input point, by the textbook definition:
    start from one block per distinct score and merge any adjacent violating pair until none
    is left (the solution is unique, whatever the merge order)."""
    distinct = sorted(set(scores.tolist()))
    blocks = [[value] for value in distinct]

    def mean(block: list[float]) -> float:
        chosen = np.isin(scores, block)
        return float(outcomes[chosen].mean())

    merged = True
    while merged:
        merged = False
        for i in range(len(blocks) - 1):
            if mean(blocks[i]) >= mean(blocks[i + 1]):
                blocks[i : i + 2] = [blocks[i] + blocks[i + 1]]
                merged = True
                break
    fitted = {value: mean(block) for block in blocks for value in block}
    return np.array([fitted[value] for value in scores.tolist()])


SCORED_OUTCOMES = st.lists(
    st.tuples(st.integers(0, 12), st.integers(0, 1)), min_size=1, max_size=40
)
"""(score, outcome) pairs: scores on a coarse grid, so that ties happen."""


def scores_and_outcomes(pairs: list[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
    return (
        np.array([score / 4.0 for score, _ in pairs]),
        np.array([outcome for _, outcome in pairs], dtype=np.float64),
    )


@settings(max_examples=200, deadline=None)
@given(SCORED_OUTCOMES)
def test_isotonic_equals_its_naive_definition_and_is_monotone(pairs):
    scores, outcomes = scores_and_outcomes(pairs)
    calibration = fit_isotonic(scores, outcomes)
    np.testing.assert_allclose(calibration(scores), naive_isotonic(scores, outcomes))
    grid = np.linspace(-1.0, 4.0, 101)
    assert np.all(np.diff(calibration(grid)) >= 0)


@settings(max_examples=200, deadline=None)
@given(SCORED_OUTCOMES)
def test_the_interpolated_map_passes_through_each_blocks_centre_and_keeps_scores_apart(pairs):
    scores, outcomes = scores_and_outcomes(pairs)
    step = fit_isotonic(scores, outcomes)
    interpolated = step.interpolating()
    fitted = naive_isotonic(scores, outcomes)
    for start, end, value, centre in zip(
        step.thresholds,
        [*step.thresholds[1:], np.inf],
        step.values,
        step.centres,
        strict=True,
    ):
        block = (scores >= start) & (scores < end)
        assert centre == pytest.approx(scores[block].mean())
        assert fitted[block] == pytest.approx(np.full(block.sum(), value))
        assert interpolated(np.array([centre]))[0] == pytest.approx(value)
    grid = np.linspace(-1.0, 4.0, 101)
    assert np.all(np.diff(interpolated(grid)) >= 0)
    inside = np.linspace(step.centres[0], step.centres[-1], 50)
    if len(step.values) > 1:
        assert np.all(np.diff(interpolated(inside)) > 0)


def test_a_map_stored_without_centres_reads_as_the_step_map_it_was():
    step = fit_isotonic(np.array([0.1, 0.2, 0.4, 0.8]), np.array([0.0, 1.0, 0.0, 1.0]))
    stored = {"thresholds": step.thresholds.tolist(), "values": step.values.tolist()}
    again = Isotonic.from_dict(stored)
    assert not again.interpolate
    scores = np.linspace(0.0, 1.0, 21)
    np.testing.assert_array_equal(again(scores), step(scores))


def test_auroc_and_calibration_error_by_hand():
    assert auroc(np.array([0.1, 0.4, 0.35, 0.8]), np.array([0, 0, 1, 1])) == 0.75
    assert auroc(np.array([0.5, 0.5]), np.array([0, 1])) == 0.5
    probabilities = np.array([0.05, 0.05, 0.95, 0.95])
    assert expected_calibration_error(probabilities, np.array([0, 0, 1, 1])) == pytest.approx(0.05)
    assert expected_calibration_error(probabilities, np.array([1, 1, 0, 0])) == pytest.approx(0.95)
