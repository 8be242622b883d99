from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from workers.align.paths.assign import assign_segments, fill_unvisited, path_weights
from workers.align.paths.dp import best_path, forward, validate_scores
from workers.align.reference.dp import naive_assign, naive_backtrace, naive_forward


def _compare_forward(gains: np.ndarray, transcript_decay: float, report_decay: float) -> None:
    gains = np.ascontiguousarray(gains, dtype=np.float32)
    directions, totals, final = forward(gains, transcript_decay, report_decay)
    naive_directions, naive_totals = naive_forward(gains, transcript_decay, report_decay)
    np.testing.assert_array_equal(directions, np.array(naive_directions, dtype=np.uint8))
    np.testing.assert_array_equal(totals, np.array(naive_totals, dtype=np.float32))
    assert final == naive_totals[-1][-1] or (np.isnan(final) and np.isnan(naive_totals[-1][-1]))


small_matrices = st.tuples(st.integers(1, 9), st.integers(1, 9)).flatmap(
    lambda shape: arrays(
        np.float32,
        shape,
        elements=st.sampled_from([0.0, 0.25, 0.5, 1.0, -0.5, 2.0])
        | st.floats(-2, 2, width=32, allow_nan=False),
    )
)
decays = st.sampled_from([0.0, 1e-4, 0.1, 0.5, 1.0])


@settings(max_examples=300, deadline=None)
@given(small_matrices, decays, decays)
def test_forward_kernel_equals_naive_definition_including_ties(gains, hd, vd):
    _compare_forward(gains, hd, vd)


@settings(max_examples=100, deadline=None)
@given(small_matrices, decays, decays, st.data())
def test_forward_kernel_propagates_nan_like_the_naive_definition(gains, hd, vd, data):
    i = data.draw(st.integers(0, gains.shape[0] - 1))
    j = data.draw(st.integers(0, gains.shape[1] - 1))
    gains[i, j] = np.nan
    _compare_forward(gains, hd, vd)


@pytest.mark.parametrize("shape", [(1, 1), (1, 7), (7, 1), (2, 2), (40, 33)])
@pytest.mark.parametrize("fill", ["zeros", "ones", "random"])
def test_path_equals_naive_backtrace_on_edge_shapes(shape, fill):
    rng = np.random.default_rng(sum(shape))
    gains = {
        "zeros": np.zeros(shape, np.float32),
        "ones": np.ones(shape, np.float32),
        "random": rng.random(shape, dtype=np.float32),
    }[fill]
    _compare_forward(gains, 1e-4, 0.01)
    path = best_path(gains, 1e-4, 0.01)
    naive_directions, naive_totals = naive_forward(gains, 1e-4, 0.01)
    naive_path = naive_backtrace(naive_directions)
    assert list(zip(path.rows.tolist(), path.cols.tolist(), strict=True)) == naive_path
    assert path.totals.tolist() == [np.float32(naive_totals[i][j]) for i, j in naive_path]


def test_empty_sides_give_an_empty_path():
    assert len(best_path(np.zeros((0, 5), np.float32))) == 0
    assert len(best_path(np.zeros((5, 0), np.float32))) == 0


def test_paper_figure_two_example():
    similarity = np.array([[5, 5, 3], [3, 7, 4], [8, 6, 7], [9, 2, 5]], dtype=np.float32)
    path = best_path(similarity)
    assert path.totals.tolist() == [5, 10, 17, 23, 30, 35]
    assert list(zip(path.rows.tolist(), path.cols.tolist(), strict=True)) == [
        (0, 0),
        (0, 1),
        (1, 1),
        (2, 1),
        (2, 2),
        (3, 2),
    ]


def test_validation_rejects_bad_input_and_zeroes_nan_on_request():
    with pytest.raises(ValueError, match="2-D"):
        validate_scores(np.zeros(3))
    with pytest.raises(ValueError, match="NaN"):
        validate_scores(np.array([[np.nan]]))
    with pytest.raises(ValueError, match="infinities"):
        validate_scores(np.array([[np.inf]]))
    with pytest.raises(TypeError, match="numeric"):
        validate_scores(np.array([["a"]]))
    with pytest.raises(ValueError, match="transcript_decay"):
        best_path(np.zeros((2, 2)), transcript_decay=2.0)
    assert validate_scores(np.array([[np.nan, 1.0]]), "zero").tolist() == [[0.0, 1.0]]


def _sentence_owners(rng: np.random.Generator, sentences: int, groups: int) -> np.ndarray:
    cuts = np.sort(
        rng.choice(np.arange(1, sentences), size=min(groups, sentences) - 1, replace=False)
    )
    return np.searchsorted(cuts, np.arange(sentences), side="right")


@settings(max_examples=200, deadline=None)
@given(small_matrices, st.integers(1, 9), st.integers(1, 9), st.integers(0, 2**32 - 1))
def test_assignment_kernel_equals_equation_six(gains, turns, segments, seed):
    rng = np.random.default_rng(seed)
    rows, cols = gains.shape
    turn_of_row = _sentence_owners(rng, rows, turns)
    segment_of_col = _sentence_owners(rng, cols, segments)
    n_turns = int(turn_of_row.max()) + 1 + int(rng.integers(0, 2))
    path = best_path(np.round(gains, 1))
    for weight in ("alignment", "gain", "count"):
        weights = path_weights(path, weight)
        result = assign_segments(path, weights, turn_of_row, segment_of_col, n_turns)
        expected = naive_assign(
            list(zip(path.rows.tolist(), path.cols.tolist(), strict=True)),
            weights.tolist(),
            turn_of_row.tolist(),
            segment_of_col.tolist(),
            n_turns,
        )
        assert result.labels.tolist() == expected


def test_unvisited_turns_inherit_the_previous_label():
    assert fill_unvisited(np.array([-2, 3, -2, 4, -2])).tolist() == [3, 3, 3, 4, 4]
    assert fill_unvisited(np.array([-2, -2])).tolist() == [-1, -1]
