"""C99 (Choi 2000) over transcript turns, as a segmentation baseline.

Turn-to-turn cosine similarities are replaced by their local rank (the share of neighbours in
an 11 x 11 mask with a lower value), which is what makes C99 robust to the uneven similarity
levels of short and long units; then boundaries are added one at a time, each time the one
that most increases the inside density D = sum of rank mass inside blocks / their area, until
there are as many blocks as report segments.
"""

from __future__ import annotations

import itertools

import numpy as np

from workers.align.baselines.linear_segmentation import (
    block_count,
    labels_from_boundaries,
    turn_word_counts,
)
from workers.align.document_model import Meeting

MASK_SIZE = 11


def rank_matrix(similarity: np.ndarray, mask_size: int = MASK_SIZE) -> np.ndarray:
    """Per cell, the fraction of the other cells in its mask (clipped at the edges) below it."""
    n = similarity.shape[0]
    half = mask_size // 2
    padded = np.pad(similarity, half, mode="constant", constant_values=np.nan)
    lower = np.zeros((n, n))
    inside = np.zeros((n, n))
    for di in range(-half, half + 1):
        for dj in range(-half, half + 1):
            if di == 0 and dj == 0:
                continue
            neighbour = padded[half + di : half + di + n, half + dj : half + dj + n]
            present = ~np.isnan(neighbour)
            inside += present
            lower += present & (np.nan_to_num(neighbour, nan=np.inf) < similarity)
    return np.divide(lower, inside, out=np.zeros_like(lower), where=inside > 0)


def c99_boundaries(rank: np.ndarray, n_blocks: int) -> np.ndarray:
    """Greedy divisive clustering; turn indices (sorted) where blocks 1..n_blocks-1 start."""
    n = rank.shape[0]
    prefix = np.zeros((n + 1, n + 1))
    prefix[1:, 1:] = rank.cumsum(axis=0).cumsum(axis=1)

    def mass(start: int, end: int) -> float:
        return prefix[end, end] - prefix[start, end] - prefix[end, start] + prefix[start, start]

    cuts = [0, n]
    total_mass, total_area = mass(0, n), float(n * n)
    for _ in range(min(max(n_blocks - 1, 0), max(n - 1, 0))):
        best_density, best_cut = -np.inf, None
        for left, right in itertools.pairwise(cuts):
            whole = mass(left, right)
            for cut in range(left + 1, right):
                inner_mass = total_mass - whole + mass(left, cut) + mass(cut, right)
                inner_area = (
                    total_area - (right - left) ** 2 + (cut - left) ** 2 + (right - cut) ** 2
                )
                density = inner_mass / inner_area
                if density > best_density:
                    best_density, best_cut = density, (cut, left, right)
        if best_cut is None:
            break
        cut, left, right = best_cut
        total_mass += mass(left, cut) + mass(cut, right) - mass(left, right)
        total_area += (cut - left) ** 2 + (right - cut) ** 2 - (right - left) ** 2
        cuts = sorted([*cuts, cut])
    return np.array(cuts[1:-1], dtype=np.int64)


def c99_labels(meeting: Meeting) -> np.ndarray:
    counts = turn_word_counts(meeting).toarray()
    norms = np.linalg.norm(counts, axis=1, keepdims=True)
    unit = np.divide(counts, norms, out=np.zeros_like(counts, dtype=np.float64), where=norms > 0)
    boundaries = c99_boundaries(rank_matrix(unit @ unit.T), block_count(meeting))
    return labels_from_boundaries(len(meeting.transcript.turns), boundaries)
