from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from reference_turn_dp import naive_turn_evidence, naive_turn_labels

from workers.align.turn_dp import SegmentView, TurnSettings, best_turn_labels

evidence_matrices = st.tuples(st.integers(0, 7), st.integers(0, 7)).flatmap(
    lambda shape: arrays(
        np.float64,
        shape,
        elements=st.sampled_from([0.0, 1.0, -1.0, 2.5, -np.inf])
        | st.floats(-5, 5, allow_nan=False, allow_infinity=False),
    )
)
turn_settings = st.builds(
    TurnSettings,
    unaligned_gain=st.sampled_from([-1.0, 0.0, 1.0, 4.0]),
    gap_open=st.sampled_from([0.0, 1.0, 5.0, 40.0]),
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
    for costs in (TurnSettings(4.0, 40.0), TurnSettings(0.0, 0.0), TurnSettings(-1.0, 2.0)):
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


@settings(max_examples=120, deadline=None)
@given(
    st.lists(st.integers(0, 3), min_size=1, max_size=8),
    st.lists(st.integers(0, 4), min_size=1, max_size=9),
    st.sampled_from([None, 0.5, 0.9]),
    st.sampled_from([0.0, 0.2]),
    st.integers(0, 2**32 - 1),
)
def test_evidence_equals_the_sentence_by_sentence_sum(
    turn_sizes, segment_sizes, quantile, offset, seed
):
    turn_of_row = sorted(np.repeat(np.arange(len(turn_sizes)), turn_sizes).tolist())
    segment_of_col = sorted(np.repeat(np.arange(len(segment_sizes)), segment_sizes).tolist())
    rng = np.random.default_rng(seed)
    scores = rng.uniform(-1, 1, (len(turn_of_row), len(segment_of_col))).astype(np.float32)
    words = rng.integers(1, 30, len(turn_of_row)).tolist()
    view = SegmentView(
        scores, turn_of_row, len(turn_sizes), words, segment_of_col, len(segment_sizes)
    )
    got = view.evidence(offset, quantile)
    expected = naive_turn_evidence(
        scores,
        turn_of_row,
        segment_of_col,
        len(turn_sizes),
        len(segment_sizes),
        words,
        offset,
        quantile,
    )
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-9)


def test_segment_view_rejects_unsorted_owners_and_nan():
    with pytest.raises(ValueError, match="sorted"):
        SegmentView(np.zeros((2, 3), np.float32), [0, 1], 2, [1, 1], [0, 1, 0], 2)
    with pytest.raises(ValueError, match="sorted"):
        SegmentView(np.zeros((2, 3), np.float32), [1, 0], 2, [1, 1], [0, 0, 1], 2)
    with pytest.raises(ValueError, match="NaN"):
        SegmentView(np.array([[np.nan]], np.float32), [0], 1, [1], [0], 1)
    with pytest.raises(ValueError, match="quantile"):
        SegmentView(np.zeros((2, 3), np.float32), [0, 1], 2, [1, 1], [0, 0, 1], 2).evidence(
            0.0, 1.5
        )


def _meeting_with_gaps():
    from workers.align.model import Meeting, Report, Segment, Transcript, Turn

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
    params = AlignmentParams(aligner="turns", match_offset=0.3, unaligned_gain=0.0)
    result = align_scores(scores, layout, params)
    assert result.labels.tolist() == [0, 0, 2], "the empty turn follows its neighbour"
    assert ((result.confidence >= 0.0) & (result.confidence <= 1.0)).all()
