from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from workers.align.paths.gapped_dp import GapSettings, best_gapped_path, vote_segments
from workers.align.reference.gapped_dp import naive_gapped_path, naive_votes

small_matrices = st.tuples(st.integers(1, 8), st.integers(1, 8)).flatmap(
    lambda shape: arrays(
        np.float32,
        shape,
        elements=st.sampled_from([0.0, 0.25, 0.5, 1.0, -0.5])
        | st.floats(-1, 1, width=32, allow_nan=False),
    )
)
gap_settings = st.builds(
    GapSettings,
    match_offset=st.sampled_from([0.0, 0.25, 0.5]),
    skip_gain=st.sampled_from([-0.25, 0.0, 0.25]),
    gap_open=st.sampled_from([0.0, 0.5, 1.0, 3.0]),
)


def _cells(path) -> list[tuple[int, int]]:
    return list(zip(path.rows.tolist(), path.cols.tolist(), strict=True))


def _compare(gains: np.ndarray, gaps: GapSettings) -> None:
    path = best_gapped_path(gains, gaps, nan_policy="zero")
    cleaned = np.nan_to_num(np.asarray(gains, dtype=np.float32), nan=0.0)
    cells, score = naive_gapped_path(cleaned, gaps.match_offset, gaps.skip_gain, gaps.gap_open)
    assert _cells(path) == cells
    assert path.score == score


@settings(max_examples=300, deadline=None)
@given(small_matrices, gap_settings)
def test_gapped_kernel_equals_naive_definition_including_ties(gains, gaps):
    _compare(gains, gaps)


@settings(max_examples=100, deadline=None)
@given(small_matrices, gap_settings, st.data())
def test_nan_cells_zeroed_on_request_match_the_definition(gains, gaps, data):
    i = data.draw(st.integers(0, gains.shape[0] - 1))
    j = data.draw(st.integers(0, gains.shape[1] - 1))
    gains[i, j] = np.nan
    _compare(gains, gaps)
    with pytest.raises(ValueError, match="NaN"):
        best_gapped_path(gains, gaps)


@pytest.mark.parametrize("shape", [(1, 1), (1, 7), (7, 1), (2, 2), (30, 41)])
@pytest.mark.parametrize("fill", ["zeros", "ones", "random", "negative"])
def test_edge_shapes_and_constant_matrices(shape, fill):
    rng = np.random.default_rng(sum(shape))
    gains = {
        "zeros": np.zeros(shape, np.float32),
        "ones": np.ones(shape, np.float32),
        "random": rng.random(shape, dtype=np.float32) - np.float32(0.5),
        "negative": -np.ones(shape, np.float32),
    }[fill]
    for gaps in (GapSettings(0.3, -0.1, 3.0), GapSettings(0.0, 0.0, 0.0)):
        _compare(gains, gaps)
        path = best_gapped_path(gains, gaps)
        assert sorted(set(path.rows.tolist())) == list(range(shape[0]))


def test_every_sentence_of_an_unrelated_transcript_is_left_unaligned():
    rng = np.random.default_rng(0)
    noise = (rng.standard_normal((60, 90)) * 0.1).astype(np.float32)
    path = best_gapped_path(noise, GapSettings(0.35, -0.1, 3.0))
    assert (path.cols == -1).all()


def test_a_matched_diagonal_survives_and_an_inserted_stretch_becomes_a_gap():
    scores = np.zeros((30, 20), np.float32)
    for i in range(10):
        scores[i, i] = 1.0
        scores[20 + i, 10 + i] = 1.0
    path = best_gapped_path(scores, GapSettings(0.35, -0.1, 1.0))
    cells = set(_cells(path))
    assert all((i, i) in cells and (20 + i, 10 + i) in cells for i in range(10))
    assert all(j == -1 for i, j in cells if 10 <= i < 20)


def test_empty_sides():
    path = best_gapped_path(np.zeros((3, 0), np.float32), GapSettings())
    assert path.rows.tolist() == [0, 1, 2]
    assert path.cols.tolist() == [-1, -1, -1]
    assert len(best_gapped_path(np.zeros((0, 4), np.float32), GapSettings())) == 0


def test_settings_are_validated():
    with pytest.raises(ValueError, match="gap_open"):
        best_gapped_path(np.zeros((2, 2), np.float32), GapSettings(gap_open=-1.0))
    with pytest.raises(ValueError, match="finite"):
        best_gapped_path(np.zeros((2, 2), np.float32), GapSettings(match_offset=np.inf))


@settings(max_examples=200, deadline=None)
@given(small_matrices, gap_settings, st.integers(1, 6), st.integers(1, 6), st.integers(0, 2**32))
def test_votes_equal_the_naive_count(gains, gaps, turns, segments, seed):
    rng = np.random.default_rng(seed)
    rows, cols = gains.shape

    def owners(n: int, groups: int) -> np.ndarray:
        cuts = np.sort(rng.choice(np.arange(1, n), size=min(groups, n) - 1, replace=False))
        return np.searchsorted(cuts, np.arange(n), side="right")

    turn_of_row, segment_of_col = owners(rows, turns), owners(cols, segments)
    n_turns = int(turn_of_row.max()) + 1 + int(rng.integers(0, 2))
    path = best_gapped_path(gains, gaps)
    labels, share = vote_segments(path, turn_of_row, segment_of_col, n_turns)
    expected = naive_votes(_cells(path), turn_of_row.tolist(), segment_of_col.tolist(), n_turns)
    assert labels.tolist() == expected
    assert ((share > 0) & (share <= 1)).all()
