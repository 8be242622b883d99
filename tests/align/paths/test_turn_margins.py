"""State margins against their definition: every path of small cases, scored and compared."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from tests.align.turn_strategies import evidence_values, turn_settings
from workers.align.document_model import UNALIGNED
from workers.align.paths.turn_dp import TurnSettings, best_turn_labels
from workers.align.paths.turn_margins import MARGIN_CAP, state_margins


def path_score(evidence: np.ndarray, labels: tuple[int, ...], gain: float, gap_open: float):
    """The turn path's objective for one labelling, or None when it breaks the order: matched
    turns earn their evidence, unaligned ones the gain, and a run of unaligned turns after a
    match pays gap_open once (a leading run pays nothing)."""
    total, last, matched_before = 0.0, -1, False
    for t, label in enumerate(labels):
        if label == UNALIGNED:
            total += gain - (gap_open if matched_before else 0.0)
            matched_before = False
            continue
        if label < last:
            return None
        total += float(evidence[t, label])
        last, matched_before = label, True
    return total


def naive_margins(evidence: np.ndarray, labels, gain: float, gap_open: float) -> list[float]:
    """Per turn, the best path whose turn has `labels[t]` less the best whose turn has any
    other state, over every labelling of the turns."""
    n_turns, n_segments = evidence.shape
    best = [dict() for _ in range(n_turns)]
    for labelling in itertools.product(range(UNALIGNED, n_segments), repeat=n_turns):
        score = path_score(evidence, labelling, gain, gap_open)
        if score is None:
            continue
        for t, label in enumerate(labelling):
            best[t][label] = max(best[t].get(label, -math.inf), score)
    margins = []
    for t, label in enumerate(labels):
        own = best[t].get(int(label), -math.inf)
        other = max((v for k, v in best[t].items() if k != label), default=-math.inf)
        margin = 0.0 if own == other else own - other
        margins.append(min(max(margin, -MARGIN_CAP), MARGIN_CAP))
    return margins


small_cases = st.tuples(st.integers(1, 5), st.integers(1, 4)).flatmap(
    lambda shape: st.tuples(
        arrays(np.float64, shape, elements=evidence_values),
        st.lists(st.integers(UNALIGNED, shape[1] - 1), min_size=shape[0], max_size=shape[0]),
    )
)


@settings(max_examples=300, deadline=None)
@given(small_cases, turn_settings)
def test_margins_equal_every_path_enumerated(case, costs):
    evidence, any_labels = case
    for labels in (any_labels, best_turn_labels(evidence, costs).tolist()):
        margins = state_margins(evidence, costs, np.asarray(labels))
        expected = naive_margins(evidence, labels, costs.unaligned_gain, costs.gap_open)
        assert margins.tolist() == pytest.approx(expected, rel=1e-9, abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(small_cases, turn_settings)
def test_the_paths_own_labels_have_no_negative_margin(case, costs):
    evidence, _ = case
    margins = state_margins(evidence, costs, best_turn_labels(evidence, costs))
    assert (margins >= -1e-9).all()


def test_charge_and_unmatchable_segments_read_as_the_evidence_they_stand_for():
    rng = np.random.default_rng(3)
    sums = rng.standard_normal((6, 4)) * 3
    charge = rng.uniform(0, 2, 6)
    matchable = np.array([True, False, True, True])
    costs = TurnSettings(unaligned_gain=1.0, gap_open=2.0)
    evidence = sums - charge[:, None]
    evidence[:, ~matchable] = -np.inf
    labels = best_turn_labels(sums, costs, charge, matchable)
    assert state_margins(sums, costs, labels, charge, matchable).tolist() == pytest.approx(
        state_margins(evidence, costs, labels).tolist()
    )


def test_a_turn_the_path_keeps_by_its_neighbours_alone_has_a_small_margin():
    """Strong evidence around a turn that has none of its own: the path keeps it in the run,
    by a margin of what leaving the run costs, far below its neighbours' margins."""
    evidence = np.array([[10.0, -5.0], [0.2, -5.0], [10.0, -5.0]])
    costs = TurnSettings(unaligned_gain=0.0, gap_open=1.0)
    labels = best_turn_labels(evidence, costs)
    margins = state_margins(evidence, costs, labels)
    assert labels.tolist() == [0, 0, 0]
    assert margins[1] == pytest.approx(1.2)
    assert margins[0] == pytest.approx(10.0), "a leading gap opens for free"
    assert margins[2] == pytest.approx(11.0), "a gap after a match pays gap_open"


@pytest.mark.parametrize(
    ("evidence", "labels", "message"),
    [
        (np.zeros(3), [0, 0, 0], "evidence must be"),
        (np.array([[np.nan]]), [0], "NaN"),
        (np.zeros((2, 2)), [0], "labels must be"),
        (np.zeros((2, 2)), [0, 2], "labels must be"),
        (np.zeros((2, 2)), [-2, 0], "labels must be"),
    ],
)
def test_bad_input_is_named(evidence, labels, message):
    with pytest.raises(ValueError, match=message):
        state_margins(evidence, TurnSettings(), np.asarray(labels))


def test_empty_report_or_transcript_gives_zero_margins():
    no_report = state_margins(np.zeros((3, 0)), TurnSettings(), np.full(3, UNALIGNED))
    assert no_report.tolist() == [0.0] * 3
    assert state_margins(np.zeros((0, 4)), TurnSettings(), np.zeros(0, np.int64)).tolist() == []
