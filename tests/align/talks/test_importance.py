from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workers.align.talks.importance import (
    SummaryLengths,
    extractive_summary,
    importance,
    ranking,
    summaries,
)


def test_importance_counts_the_words_assigned_to_each_sentence():
    assert importance(np.array([2, 2, 0, -1, 2]), 4).tolist() == [1, 0, 3, 0]
    assert importance(np.zeros(0, dtype=np.int64), 2).tolist() == [0, 0]
    with pytest.raises(ValueError, match="sentence 5 of 3"):
        importance(np.array([5]), 3)


def test_ranking_is_by_score_then_paper_order_and_skips_unmentioned_sentences():
    assert ranking(np.array([3, 0, 7, 3, 1])) == [2, 0, 3, 4]


def test_summary_is_a_prefix_of_the_ranking_that_fits_in_paper_order():
    scores = np.array([5, 9, 0, 7, 1])
    words = [10, 20, 5, 30, 5]
    assert extractive_summary(scores, words, 50) == [1, 3]
    assert extractive_summary(scores, words, 49) == [1]
    assert extractive_summary(scores, words, 1000) == [0, 1, 3, 4]
    assert extractive_summary(scores, words, 19) == []


def test_the_four_talksumm_summaries_by_name():
    scores = np.array([4, 3, 2, 1, 0])
    words = [100, 100, 100, 100, 100]
    assert summaries(scores, words) == {
        "150_words": [0],
        "250_words": [0, 1],
        "ratio_0.3": [0],
        "ratio_0.4": [0, 1],
    }
    custom = summaries(scores, words, SummaryLengths(words=(300,), ratios=(0.8,)))
    assert custom == {"300_words": [0, 1, 2], "ratio_0.8": [0, 1, 2, 3]}
    with pytest.raises(ValueError, match="ratios"):
        SummaryLengths(ratios=(1.5,))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 9), st.integers(1, 40)), max_size=12),
    st.integers(0, 200),
)
def test_a_summary_never_exceeds_its_budget_and_beats_every_sentence_left_out(pairs, budget):
    scores = np.array([score for score, _ in pairs], dtype=np.int64)
    words = [length for _, length in pairs]
    chosen = extractive_summary(scores, words, budget)
    assert sum(words[i] for i in chosen) <= budget
    assert chosen == sorted(chosen)
    left = [i for i in range(len(pairs)) if i not in chosen]
    if chosen:
        assert min(scores[chosen]) >= max(scores[left], default=0)
    assert all(scores[i] > 0 for i in chosen)
