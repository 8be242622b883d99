"""TextTiling (Hearst 1997) at transcript-turn boundaries, as a segmentation baseline.

Each turn boundary is scored by the cosine between the word counts of the `block_words`
tokens before it and after it (Hearst's block comparison, k token-sequences of w words), the
scores are smoothed, and a boundary's depth is how far it dips below the highest scores to its
left and right. The deepest boundaries are kept, as many as the report has segments minus one.
"""

from __future__ import annotations

import numpy as np

from workers.align.baselines.linear_segmentation import (
    block_count,
    labels_from_boundaries,
    turn_word_counts,
)
from workers.align.document_model import Meeting

BLOCK_WORDS = 120
"""Hearst's k = 6 token-sequences of w = 20 words."""
SMOOTHING_WIDTH = 2


def gap_scores(counts: np.ndarray, turn_lengths: np.ndarray, block_words: int) -> np.ndarray:
    """Cosine between the ~block_words tokens before and after each boundary 1..n-1.

    `counts` (turns, vocabulary) dense; blocks are whole turns, grown until they hold
    block_words tokens, so a long turn is one block by itself.
    """
    n_turns = counts.shape[0]
    cumulative_words = np.concatenate(([0], np.cumsum(turn_lengths)))
    cumulative_counts = np.vstack([np.zeros((1, counts.shape[1])), np.cumsum(counts, axis=0)])
    scores = np.zeros(max(n_turns - 1, 0))
    for boundary in range(1, n_turns):
        words_here = cumulative_words[boundary]
        left_start = np.searchsorted(cumulative_words, words_here - block_words, side="right") - 1
        right_end = np.searchsorted(cumulative_words, words_here + block_words, side="left")
        left_start = min(max(left_start, 0), boundary - 1)
        right_end = max(min(right_end, n_turns), boundary + 1)
        left = cumulative_counts[boundary] - cumulative_counts[left_start]
        right = cumulative_counts[right_end] - cumulative_counts[boundary]
        norm = np.linalg.norm(left) * np.linalg.norm(right)
        scores[boundary - 1] = float(left @ right / norm) if norm > 0 else 0.0
    return scores


def depth_scores(scores: np.ndarray) -> np.ndarray:
    """Hearst's depth: (left peak - score) + (right peak - score), peaks climbed while rising."""
    depths = np.zeros(len(scores))
    for position, score in enumerate(scores):
        left = position
        while left > 0 and scores[left - 1] >= scores[left]:
            left -= 1
        right = position
        while right < len(scores) - 1 and scores[right + 1] >= scores[right]:
            right += 1
        depths[position] = (scores[left] - score) + (scores[right] - score)
    return depths


def smooth(scores: np.ndarray, width: int = SMOOTHING_WIDTH) -> np.ndarray:
    if len(scores) == 0 or width <= 0:
        return scores
    kernel = np.ones(2 * width + 1)
    padded = np.pad(scores, width, mode="edge")
    return np.convolve(padded, kernel / kernel.sum(), mode="valid")


def texttiling_boundaries(
    counts: np.ndarray, turn_lengths: np.ndarray, n_blocks: int, block_words: int = BLOCK_WORDS
) -> np.ndarray:
    """Turn indices (sorted) where blocks 1..n_blocks-1 start; deepest first, earliest on ties."""
    n_turns = counts.shape[0]
    wanted = min(max(n_blocks - 1, 0), max(n_turns - 1, 0))
    if wanted == 0:
        return np.zeros(0, dtype=np.int64)
    depths = depth_scores(smooth(gap_scores(counts, turn_lengths, block_words)))
    order = np.argsort(-depths, kind="stable")[:wanted]
    return np.sort(order + 1)


def texttiling_labels(meeting: Meeting) -> np.ndarray:
    counts = turn_word_counts(meeting).toarray()
    lengths = counts.sum(axis=1)
    boundaries = texttiling_boundaries(counts, lengths, block_count(meeting))
    return labels_from_boundaries(len(meeting.transcript.turns), boundaries)
