from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from tests.align.turn_strategies import evidence_values, turn_settings
from workers.align.paths.blocks import MIN_BLOCK_PAIRS, Blocking
from workers.align.paths.turn_dp import SegmentView, TurnSettings, best_turn_labels
from workers.align.reference.turn_dp import (
    naive_turn_evidence,
    naive_turn_labels,
    whole_matrix_baseline_sums,
    whole_matrix_sums,
)

evidence_matrices = st.tuples(st.integers(0, 7), st.integers(0, 7)).flatmap(
    lambda shape: arrays(np.float64, shape, elements=evidence_values)
)


@settings(max_examples=400, deadline=None)
@given(evidence_matrices, turn_settings)
def test_turn_kernel_equals_naive_definition_including_ties(evidence, costs):
    labels = best_turn_labels(evidence, costs)
    expected = naive_turn_labels(evidence, costs.unaligned_gain, costs.gap_open)
    assert labels.tolist() == expected


@pytest.mark.parametrize("shape", [(1, 1), (1, 9), (9, 1), (40, 25)])
@pytest.mark.parametrize("fill", ["zeros", "ones", "random", "negative"])
def test_edge_shapes_and_constant_evidence(shape, fill):
    rng = np.random.default_rng(sum(shape))
    evidence = {
        "zeros": np.zeros(shape),
        "ones": np.ones(shape),
        "random": rng.standard_normal(shape) * 3,
        "negative": -np.ones(shape),
    }[fill]
    for costs in (
        TurnSettings(unaligned_gain=4.0, gap_open=40.0),
        TurnSettings(unaligned_gain=0.0, gap_open=0.0),
        TurnSettings(unaligned_gain=-1.0, gap_open=2.0),
    ):
        labels = best_turn_labels(evidence, costs)
        assert labels.tolist() == naive_turn_labels(evidence, costs.unaligned_gain, costs.gap_open)
        aligned = labels[labels >= 0]
        assert (np.diff(aligned) >= 0).all(), "aligned turns keep the report's order"


def test_empty_sides_and_bad_input():
    assert best_turn_labels(np.zeros((3, 0)), TurnSettings()).tolist() == [-1, -1, -1]
    assert best_turn_labels(np.zeros((0, 4)), TurnSettings()).tolist() == []
    with pytest.raises(ValueError, match="NaN"):
        best_turn_labels(np.array([[np.nan]]), TurnSettings())
    with pytest.raises(ValueError, match="gap_open"):
        best_turn_labels(np.zeros((2, 2)), TurnSettings(gap_open=-1.0))
    with pytest.raises(ValueError, match="turns, segments"):
        best_turn_labels(np.zeros(3), TurnSettings())


def test_a_weak_stretch_is_left_out_whole_and_a_short_weak_turn_alone():
    evidence = np.full((12, 4), -3.0)
    for turn, segment in [(0, 0), (1, 0), (2, 1), (9, 2), (10, 3), (11, 3)]:
        evidence[turn, segment] = 20.0
    evidence[3:9, :] = -3.0  # a stretch that matches nothing well
    evidence[5, 1] = 1.0  # one turn inside it that matches a little
    labels = best_turn_labels(evidence, TurnSettings(unaligned_gain=0.0, gap_open=10.0))
    assert labels.tolist() == [0, 0, 1, -1, -1, -1, -1, -1, -1, 2, 3, 3]
    labels = best_turn_labels(evidence, TurnSettings(unaligned_gain=0.0, gap_open=0.0))
    assert labels[5] == 1, "without a gap cost the weakly matching turn is kept"


def test_long_turns_outweigh_the_unaligned_gain_and_short_ones_do_not():
    evidence = np.array([[30.0, -5.0], [0.5, -1.0], [-5.0, 30.0]])
    labels = best_turn_labels(evidence, TurnSettings(unaligned_gain=2.0, gap_open=0.0))
    assert labels.tolist() == [0, -1, 1]


@settings(max_examples=300, deadline=None)
@given(
    evidence_matrices.flatmap(
        lambda sums: st.tuples(
            st.just(sums),
            arrays(np.float64, sums.shape[0], elements=st.sampled_from([0.0, 0.5, -1.0, 3.0])),
            arrays(np.bool_, sums.shape[1]),
        )
    ),
    turn_settings,
)
def test_charged_sums_give_the_path_of_the_subtracted_evidence(inputs, costs):
    sums, charge, matchable = inputs
    evidence = np.where(matchable[None, :], sums - charge[:, None], -np.inf)
    labels = best_turn_labels(sums, costs, charge, matchable)
    assert labels.tolist() == naive_turn_labels(evidence, costs.unaligned_gain, costs.gap_open)


def _owners(sizes: list[int]) -> np.ndarray:
    return np.repeat(np.arange(len(sizes)), sizes)


sentence_grids = st.tuples(
    st.lists(st.integers(0, 12), min_size=1, max_size=8),
    st.lists(st.integers(0, 4), min_size=1, max_size=9),
    st.integers(0, 2**32 - 1),
    st.integers(1, 40),
)


@settings(max_examples=200, deadline=None)
@given(sentence_grids, st.sampled_from([None, 0.5, 0.9]), st.sampled_from([0.0, 0.2]))
def test_evidence_equals_the_sentence_by_sentence_sum(grid, quantile, offset):
    turn_sizes, segment_sizes, seed, block_pairs = grid
    turn_of_row, segment_of_col = _owners(turn_sizes), _owners(segment_sizes)
    rng = np.random.default_rng(seed)
    scores = rng.uniform(-1, 1, (len(turn_of_row), len(segment_of_col))).astype(np.float32)
    words = rng.integers(1, 30, len(turn_of_row))
    view = SegmentView(
        scores,
        turn_of_row,
        len(turn_sizes),
        words,
        segment_of_col,
        len(segment_sizes),
        blocking=Blocking(max_pairs=2 * block_pairs, min_pairs=block_pairs),
    )
    got = view.evidence(view.charge(offset, quantile))
    expected = naive_turn_evidence(
        scores,
        turn_of_row.tolist(),
        segment_of_col.tolist(),
        len(turn_sizes),
        len(segment_sizes),
        words.tolist(),
        offset,
        quantile,
    )
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-9)


@settings(max_examples=200, deadline=None)
@given(sentence_grids, st.lists(st.sampled_from([0.1, 0.5, 0.9]), max_size=2))
def test_sums_read_in_blocks_are_the_whole_matrix_sums_bit_for_bit(grid, quantiles):
    """Turns of up to 12 sentences cut anywhere by blocks of a few pairs. numpy does not sum a
    turn's rows one after another, so only the same reduction over the same rows gives the
    same bits; scores spread over thirty binary orders of magnitude make the order show (sums
    of like-sized float32 values times word counts are exact in float64 in any order)."""
    turn_sizes, segment_sizes, seed, block_pairs = grid
    turn_of_row, segment_of_col = _owners(turn_sizes), _owners(segment_sizes)
    n_turns, n_segments = len(turn_sizes), len(segment_sizes)
    rng = np.random.default_rng(seed)
    shape = (len(turn_of_row), len(segment_of_col))
    scores = (rng.uniform(-1, 1, shape) * 2.0 ** rng.integers(-30, 1, shape)).astype(np.float32)
    words = rng.integers(1, 30, len(turn_of_row))
    view = SegmentView(
        scores,
        turn_of_row,
        n_turns,
        words,
        segment_of_col,
        n_segments,
        quantiles=tuple(quantiles),
        blocking=Blocking(max_pairs=2 * block_pairs, min_pairs=block_pairs),
    )
    whole = whole_matrix_sums(scores, turn_of_row, n_turns, words, segment_of_col, n_segments)
    np.testing.assert_array_equal(view.weighted_maxima, whole)
    for quantile in [*quantiles, 0.25]:
        np.testing.assert_array_equal(
            view.baseline_sums(quantile),
            whole_matrix_baseline_sums(scores, turn_of_row, n_turns, words, quantile),
        )


def test_segment_view_rejects_unsorted_owners_and_nan():
    with pytest.raises(ValueError, match="sorted"):
        SegmentView(np.zeros((2, 3), np.float32), [0, 1], 2, [1, 1], [0, 1, 0], 2)
    with pytest.raises(ValueError, match="sorted"):
        SegmentView(np.zeros((2, 3), np.float32), [1, 0], 2, [1, 1], [0, 0, 1], 2)
    with pytest.raises(ValueError, match="NaN"):
        SegmentView(np.array([[np.nan]], np.float32), [0], 1, [1], [0], 1)
    with pytest.raises(ValueError, match="quantile"):
        SegmentView(np.zeros((2, 3), np.float32), [0, 1], 2, [1, 1], [0, 0, 1], 2).charge(0.0, 1.5)
    with pytest.raises(ValueError, match="quantile"):
        SegmentView(np.zeros((1, 1), np.float32), [0], 1, [1], [0], 1, quantiles=(-0.1,))


def test_charge_and_matchable_are_checked():
    with pytest.raises(ValueError, match="charge"):
        best_turn_labels(np.zeros((2, 2)), TurnSettings(), np.array([0.0, np.inf]))
    with pytest.raises(ValueError, match="charge"):
        best_turn_labels(np.zeros((2, 2)), TurnSettings(), np.zeros(3))
    with pytest.raises(ValueError, match="matchable"):
        best_turn_labels(np.zeros((2, 2)), TurnSettings(), np.zeros(2), np.ones(3, bool))


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 5000),
    st.integers(0, 300),
    st.integers(1, 2000),
    st.integers(2, 4),
)
def test_row_blocks_cover_the_rows_in_near_equal_blocks_within_bounds(
    n_rows, n_cols, min_pairs, ratio
):
    blocking = Blocking(max_pairs=ratio * min_pairs, min_pairs=min_pairs)
    blocks = blocking.row_blocks(n_rows, n_cols)
    bounds = [0] + [stop for _, stop in blocks]
    assert [start for start, _ in blocks] == bounds[:-1]
    assert bounds[-1] == n_rows
    sizes = [stop - start for start, stop in blocks]
    assert all(size > 0 for size in sizes)
    if sizes:
        assert max(sizes) - min(sizes) <= 1
    width = max(n_cols, 1)
    for size in sizes:
        assert size * width <= blocking.max_pairs + width or len(sizes) == 1
        assert size * width >= min_pairs or len(sizes) == 1


def test_blocking_refuses_blocks_that_cannot_hold_two_minimal_ones():
    with pytest.raises(ValueError, match="max_pairs >= 2"):
        Blocking(max_pairs=MIN_BLOCK_PAIRS).validate()
    with pytest.raises(ValueError, match="min_pairs >= 1"):
        Blocking(max_pairs=4, min_pairs=0).validate()


def _meeting_with_gaps():
    from workers.align.document_model import Meeting, Report, Segment, Transcript, Turn

    def turn(index, sentences):
        return Turn(f"t{index}", " ".join(sentences), tuple(sentences), None, None, None, index)

    def segment(index, sentences):
        return Segment(f"s{index}", " ".join(sentences), tuple(sentences), None, index)

    turns = (
        turn(0, ["le budget est voté .", "merci ."]),
        turn(1, []),
        turn(2, ["la piscine ouvre en mai ."]),
    )
    segments = (segment(0, ["le budget est voté ."]), segment(1, []), segment(2, ["piscine ."]))
    return Meeting(
        "m", Report(segments, "test"), Transcript(turns, "test"), reference=None, initial=None
    )


def test_the_turn_aligner_in_the_pipeline_handles_empty_turns_and_segments():
    from workers.align.layout import sentence_layout
    from workers.align.params import AlignmentParams
    from workers.align.pipeline import align_scores

    meeting = _meeting_with_gaps()
    layout = sentence_layout(meeting)
    scores = np.array([[0.9, 0.0], [0.1, 0.1], [0.0, 0.8]], dtype=np.float32)
    params = AlignmentParams(path=TurnSettings(match_offset=0.3, unaligned_gain=0.0))
    result = align_scores(scores, layout, params)
    assert result.labels.tolist() == [0, 0, 2], "the empty turn follows its neighbour"
    assert ((result.confidence >= 0.0) & (result.confidence <= 1.0)).all()
