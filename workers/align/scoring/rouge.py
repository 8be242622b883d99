"""ROUGE-N and ROUGE-L F-measures between every transcript and report text, vectorised.

ROUGE-N overlap is sum_w min(a_w, b_w). Because min(a, b) = sum_{t>=1} [a >= t][b >= t], the
overlap matrix is a sum of sparse products of "count >= t" indicator matrices, which makes
all-pairs ROUGE-N a handful of sparse matrix products instead of a Python double loop.
ROUGE-L needs a longest common subsequence per pair, done by a numba kernel.
"""

from __future__ import annotations

import numba
import numpy as np
import scipy.sparse as sp


def overlap_counts(left: sp.csr_matrix, right: sp.csr_matrix) -> np.ndarray:
    """Clipped n-gram overlap sum_w min(left_w, right_w) for every row pair (dense float64)."""
    overlap = np.zeros((left.shape[0], right.shape[0]), dtype=np.float64)
    threshold = 1
    while True:
        left_at = (left >= threshold).astype(np.float64)
        right_at = (right >= threshold).astype(np.float64)
        if left_at.nnz == 0 or right_at.nnz == 0:
            return overlap
        overlap += (left_at @ right_at.T).toarray()
        threshold += 1


def f_measure(overlap: np.ndarray, left_totals: np.ndarray, right_totals: np.ndarray) -> np.ndarray:
    """F1 of overlap against each side's n-gram total; 0 where either side is empty."""
    totals = left_totals[:, None] + right_totals[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        scores = np.where(totals > 0, 2.0 * overlap / totals, 0.0)
    return scores.astype(np.float32)


def rouge_n(left: sp.csr_matrix, right: sp.csr_matrix) -> np.ndarray:
    """ROUGE-N F between rows of two n-gram count matrices over one vocabulary."""
    return f_measure(
        overlap_counts(left, right),
        np.asarray(left.sum(axis=1)).ravel(),
        np.asarray(right.sum(axis=1)).ravel(),
    )


@numba.njit(
    "void(int64[::1], int64[::1], int64[::1], int64[::1], float32[:, ::1])",
    cache=True,
    nogil=True,
)
def _rouge_l_kernel(
    left_tokens: np.ndarray,
    left_offsets: np.ndarray,
    right_tokens: np.ndarray,
    right_offsets: np.ndarray,
    scores: np.ndarray,
) -> None:  # pragma: no cover
    """scores (n_left, n_right) = LCS F for texts given as flat token ids + offsets (n+1)."""
    n_left = left_offsets.shape[0] - 1
    n_right = right_offsets.shape[0] - 1
    longest = 0
    for b in range(n_right):
        longest = max(longest, right_offsets[b + 1] - right_offsets[b])
    previous = np.zeros(longest + 1, dtype=np.int64)
    current = np.zeros(longest + 1, dtype=np.int64)
    for a in range(n_left):
        a_start = left_offsets[a]
        a_length = left_offsets[a + 1] - a_start
        for b in range(n_right):
            b_start = right_offsets[b]
            b_length = right_offsets[b + 1] - b_start
            if a_length == 0 or b_length == 0:
                scores[a, b] = 0.0
                continue
            for y in range(b_length + 1):
                previous[y] = 0
            for x in range(a_length):
                token = left_tokens[a_start + x]
                current[0] = 0
                for y in range(b_length):
                    if token == right_tokens[b_start + y]:
                        current[y + 1] = previous[y] + 1
                    elif previous[y + 1] >= current[y]:
                        current[y + 1] = previous[y + 1]
                    else:
                        current[y + 1] = current[y]
                previous, current = current, previous
            common = previous[b_length]
            scores[a, b] = 2.0 * common / (a_length + b_length)


def rouge_l(left: list[list[int]], right: list[list[int]]) -> np.ndarray:
    """ROUGE-L F (beta = 1) between token-id sequences."""

    def flatten(texts: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
        offsets = np.concatenate(([0], np.cumsum([len(text) for text in texts]))).astype(np.int64)
        tokens = np.fromiter((t for text in texts for t in text), np.int64, count=offsets[-1])
        return tokens, offsets

    scores = np.empty((len(left), len(right)), dtype=np.float32)
    if len(left) and len(right):
        _rouge_l_kernel(*flatten(left), *flatten(right), scores)
    return scores
