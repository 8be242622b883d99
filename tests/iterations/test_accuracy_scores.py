"""A closed document's automatic figures when its gold's segments are too short for
WindowDiff's window: null, and left out of the iteration's box plot rather than counted 0."""

from __future__ import annotations

import pytest

from backend.iterations.accuracy import score_correction, summarise


def test_short_gold_segments_give_a_null_windowdiff() -> None:
    scores = score_correction(
        pre_alignment=[-1, -1, -1, 3],
        gold=[0, 1, 2, 3],
        word_counts=[1, 1, 1, 1],
        turn_keys=["0_0_0", "0_1_0", "0_2_0", "0_3_0"],
    )
    assert scores.segment_accuracy == 25.0
    assert scores.windowdiff is None


def test_a_null_windowdiff_is_left_out_of_the_summary() -> None:
    assert summarise([None, 10.0, 20.0]) == {
        "count": 3,
        "mean": pytest.approx(15.0),
        "median": pytest.approx(15.0),
        "min": 10.0,
        "q1": pytest.approx(12.5),
        "q3": pytest.approx(17.5),
        "max": 20.0,
    }
    assert summarise([None])["count"] == 1
    assert summarise([None])["mean"] is None
    assert summarise([])["count"] == 0
