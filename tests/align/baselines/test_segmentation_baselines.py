"""TextTiling and C99 must find planted topic shifts and keep the block count they are given."""

from __future__ import annotations

import numpy as np
import pytest

from workers.align.baselines.c99 import c99_boundaries, rank_matrix
from workers.align.baselines.linear_segmentation import labels_from_boundaries
from workers.align.baselines.texttiling import depth_scores, texttiling_boundaries


def _planted_topics(turns_per_topic: int, topics: int) -> np.ndarray:
    """(turns, vocabulary) counts: each topic uses its own ten words, plus one shared word."""
    rng = np.random.default_rng(3)
    counts = np.zeros((turns_per_topic * topics, 10 * topics + 1))
    for topic in range(topics):
        for turn in range(turns_per_topic):
            words = rng.integers(10 * topic, 10 * topic + 10, size=12)
            np.add.at(counts[topic * turns_per_topic + turn], words, 1)
            counts[topic * turns_per_topic + turn, -1] += 3
    return counts


@pytest.mark.parametrize("topics", [2, 4])
def test_texttiling_finds_planted_shifts(topics):
    counts = _planted_topics(8, topics)
    boundaries = texttiling_boundaries(counts, counts.sum(axis=1), topics, block_words=40)
    planted = np.array([8 * k for k in range(1, topics)])
    assert np.abs(boundaries - planted).max() <= 1, "smoothing may move a shift by one turn"


@pytest.mark.parametrize("topics", [2, 4])
def test_c99_finds_planted_shifts(topics):
    counts = _planted_topics(8, topics)
    unit = counts / np.linalg.norm(counts, axis=1, keepdims=True)
    boundaries = c99_boundaries(rank_matrix(unit @ unit.T), topics)
    assert boundaries.tolist() == [8 * k for k in range(1, topics)]


def test_rank_counts_lower_neighbours_inside_the_clipped_mask():
    similarity = np.arange(9, dtype=float).reshape(3, 3)
    rank = rank_matrix(similarity, mask_size=3)
    assert rank[0, 0] == 0.0
    assert rank[2, 2] == 1.0
    assert rank[1, 1] == 4 / 8


def test_depth_climbs_to_the_peaks_on_each_side():
    assert depth_scores(np.array([0.9, 0.5, 0.7, 0.2, 0.8])).tolist() == pytest.approx(
        [0.0, 0.6, 0.0, 1.1, 0.0]
    )


def test_block_counts_are_kept_on_tiny_and_degenerate_inputs():
    one_turn = np.ones((1, 3))
    assert texttiling_boundaries(one_turn, one_turn.sum(axis=1), 5).tolist() == []
    assert c99_boundaries(rank_matrix(np.ones((1, 1))), 5).tolist() == []
    flat = np.ones((6, 6))
    assert len(c99_boundaries(rank_matrix(flat), 3)) == 2
    assert labels_from_boundaries(5, np.array([2, 4])).tolist() == [0, 0, 1, 1, 2]
