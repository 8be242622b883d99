from __future__ import annotations

import random

import numpy as np
import pytest
from nltk.metrics.segmentation import pk as nltk_pk
from nltk.metrics.segmentation import windowdiff as nltk_windowdiff

from workers.align.metrics import (
    boundary_flags,
    merge_subturns,
    micro_average,
    pk,
    score_meeting,
    window_size,
    windowdiff,
)


def _labels(side: dict) -> list[int]:
    index = {doc["id"]: int(doc["id"].split("_")[1]) for doc in side["doc"]}
    return [index[turn["aligned"]] if turn["aligned"] else -1 for turn in side["ctm"]]


def test_initial_against_final_reproduces_the_published_calibration(raw_meetings):
    scores = []
    for sides in raw_meetings.values():
        final, initial = sides["final"], sides["initial"]
        initial_by_turn = {
            turn["id"].split("_")[1]: label
            for turn, label in zip(initial["ctm"], _labels(initial), strict=True)
        }
        turn_ids = [turn["id"] for turn in final["ctm"]]
        predicted = [initial_by_turn[turn_id.split("_")[1]] for turn_id in turn_ids]
        words = [len(turn["text"].split()) for turn in final["ctm"]]
        scores.append(score_meeting(*merge_subturns(turn_ids, _labels(final), predicted, words)))
    summary = micro_average(scores)
    assert round(summary.segment_accuracy, 2) == 69.48
    assert round(summary.word_accuracy, 2) == 79.18
    assert round(summary.windowdiff, 2) == 15.05


def test_boundary_flags_mark_first_turn_and_changes_and_drop_last():
    assert boundary_flags([3, 3, 4, 4, 5]).tolist() == [1, 0, 1, 0]
    assert boundary_flags([7]).tolist() == []


def test_window_size_uses_python_round():
    assert window_size(np.array([1, 0, 0, 0, 0, 0, 0, 0, 0, 0])) == 4
    assert window_size(np.array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0])) == round(0.5 * 10 / 2 - 1)
    assert window_size(np.array([1, 1, 1, 1])) == 0
    assert window_size(np.array([1, 0, 1, 0, 1, 0])) == round(0.5)


@pytest.mark.parametrize("seed", range(40))
def test_windowdiff_and_pk_match_nltk(seed):
    rng = random.Random(seed)
    length = rng.randint(1, 60)
    reference = np.array([rng.random() < 0.3 for _ in range(length)], dtype=np.int8)
    hypothesis = np.array([rng.random() < 0.3 for _ in range(length)], dtype=np.int8)
    k = rng.randint(1, length)
    as_text = ("".join(map(str, flags.tolist())) for flags in (hypothesis, reference))
    hyp_text, ref_text = as_text
    assert windowdiff(reference, hypothesis, k) == pytest.approx(
        nltk_windowdiff(hyp_text, ref_text, k), abs=1e-12
    )
    assert pk(reference, hypothesis, k) == pytest.approx(nltk_pk(ref_text, hyp_text, k), abs=1e-12)


def test_a_zero_window_is_undefined_not_perfect():
    assert windowdiff(np.array([1, 1]), np.array([0, 0]), 0) is None
    assert pk(np.array([1, 1]), np.array([0, 0]), 0) is None


def test_short_segments_leave_windowdiff_and_pk_undefined_in_every_average():
    short = score_meeting([0, 1, 2, 3], [-1, -1, -1, 3], [1, 1, 1, 1])
    assert (short.segment_hits, short.windowdiff, short.pk) == (1, None, None)
    alone = micro_average([short])
    assert (alone.windowdiff, alone.pk) == (None, None)
    assert alone.as_dict()["windowdiff"] is None
    long = score_meeting([0] * 10 + [1] * 10, [0] * 12 + [1] * 8, [1] * 20)
    both = micro_average([short, long])
    assert both.windowdiff == pytest.approx(100 * long.windowdiff * 20 / 24)
    assert both.pk == pytest.approx(100 * long.pk * 20 / 24)


def test_unaligned_detection_counts_and_word_weighting():
    scores = score_meeting([0, -1, -1, 1], [0, -1, 1, -1], [1, 2, 3, 4])
    assert (scores.segment_hits, scores.word_hits, scores.words) == (2, 3, 10)
    summary = micro_average([scores])
    assert summary.unaligned_precision == 50.0
    assert summary.unaligned_recall == 50.0


def test_merge_subturns_keeps_first_label_and_sums_words():
    merged = merge_subturns(
        ["0_1_0", "0_2_1", "0_2_2", "0_3_0", "x"], [0, 1, 2, 2, 3], [0, 1, 1, 2, 3], [1, 2, 3, 4, 5]
    )
    assert [part.tolist() for part in merged] == [[0, 1, 2, 3], [0, 1, 2, 3], [1, 5, 4, 5]]
