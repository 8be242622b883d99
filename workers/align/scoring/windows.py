"""Sliding windows over sentences, equations 1-3 of Align-then-Summarize.

A window of `size` sentences shares `overlap` sentences with the next one, so windows start
every size - overlap sentences; the last one may be shorter, and a side shorter than the
overlap still gets one window. Scores between windows go back to sentences by reducing (sum
or product) over every pair of windows that contains the sentence pair.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import scipy.sparse as sp

Aggregation = Literal["sum", "mean", "max", "cat"]
Reduction = Literal["sum", "product"]


def window_starts(n_sentences: int, size: int, overlap: int) -> np.ndarray:
    if size < 1 or not 0 <= overlap < size:
        raise ValueError(f"need size >= 1 and 0 <= overlap < size, got {size=} {overlap=}")
    if n_sentences == 0:
        return np.zeros(0, dtype=np.int64)
    return np.arange(0, max(n_sentences - overlap, 1), size - overlap, dtype=np.int64)


def membership(n_sentences: int, size: int, overlap: int) -> sp.csr_matrix:
    """Window x sentence 0/1 matrix."""
    starts = window_starts(n_sentences, size, overlap)
    ends = np.minimum(starts + size, n_sentences)
    lengths = ends - starts
    indptr = np.concatenate(([0], np.cumsum(lengths)))
    ranges = [np.arange(s, e) for s, e in zip(starts, ends, strict=True)]
    indices = np.concatenate(ranges) if ranges else np.empty(0, dtype=np.int64)
    data = np.ones(len(indices), dtype=np.float64)
    return sp.csr_matrix((data, indices.astype(np.int64), indptr), shape=(len(starts), n_sentences))


def aggregate(
    features: np.ndarray | sp.csr_matrix, size: int, overlap: int, aggregation: Aggregation
) -> np.ndarray | sp.csr_matrix:
    """Window features from sentence features: sum/mean/max of vectors, or "cat" (the counts of
    the concatenated text, i.e. the sum, for sparse count matrices)."""
    n_sentences = features.shape[0]
    if size == 1:
        return features
    members = membership(n_sentences, size, overlap)
    if aggregation in ("sum", "cat"):
        return members @ features
    if sp.issparse(features):
        raise ValueError(f"aggregation {aggregation!r} needs dense features")
    if aggregation == "mean":
        return (members @ features) / np.asarray(members.sum(axis=1))
    if aggregation == "max":
        starts = window_starts(n_sentences, size, overlap)
        windows = np.empty((len(starts), features.shape[1]), dtype=features.dtype)
        for position, start in enumerate(starts):
            windows[position] = features[start : start + size].max(axis=0)
        return windows
    raise ValueError(f"unknown aggregation {aggregation!r}")


def _containing_windows(n_sentences: int, size: int, overlap: int) -> list[np.ndarray]:
    """For offset r, the r-th window containing each sentence, or -1 when it has fewer."""
    starts = window_starts(n_sentences, size, overlap)
    step = size - overlap
    sentences = np.arange(n_sentences)
    last = np.minimum(sentences // step, len(starts) - 1)
    first = np.maximum(0, -(-(sentences - size + 1) // step))
    columns = []
    for offset in range(-(-size // step)):
        window = first + offset
        columns.append(np.where(window <= last, window, -1))
    return columns


def window_span(
    start: int, stop: int, n_sentences: int, size: int, overlap: int
) -> tuple[int, int]:
    """The windows [first, end) that hold any of the sentences start..stop-1 (start < stop)."""
    step = size - overlap
    n_windows = len(window_starts(n_sentences, size, overlap))
    first = max(0, -(-(start - size + 1) // step))
    return first, min((stop - 1) // step, n_windows - 1) + 1


def reduce_to_sentences(
    window_scores: np.ndarray,
    transcript_shape: tuple[int, int, int],
    report_shape: tuple[int, int, int],
    reduction: Reduction,
    rows: tuple[int, int] | None = None,
) -> np.ndarray:
    """Equation 3: sentence score = sum or product of the scores of all window pairs holding it.

    The shapes are (n_sentences, size, overlap) for each side. `rows` = (start, stop) asks for
    transcript sentences start..stop-1 only, from `window_scores` holding the transcript
    windows `window_span(start, stop, ...)` (all report windows): the same numbers, each
    reduced in the same order, as those rows of the whole.
    """
    n_rows, row_size, row_overlap = transcript_shape
    n_cols, col_size, col_overlap = report_shape
    if row_size == 1 and col_size == 1:
        return window_scores
    if reduction not in ("sum", "product"):
        raise ValueError(f"unknown reduction {reduction!r}")
    neutral = 0.0 if reduction == "sum" else 1.0
    combine = np.add if reduction == "sum" else np.multiply
    start, stop = (0, n_rows) if rows is None else rows
    first = window_span(start, stop, n_rows, row_size, row_overlap)[0] if stop > start else 0

    def along_rows(scores: np.ndarray, containing: list[np.ndarray]) -> np.ndarray:
        result = np.full((len(containing[0]), scores.shape[1]), neutral, dtype=np.float32)
        for windows in containing:
            valid = windows >= 0
            result[valid] = combine(result[valid], scores[windows[valid]])
        return result

    row_windows = [
        np.where(windows >= 0, windows - first, -1)
        for windows in _containing_windows(n_rows, row_size, row_overlap)
    ]
    by_row = along_rows(window_scores, [windows[start:stop] for windows in row_windows])
    return np.ascontiguousarray(
        along_rows(by_row.T, _containing_windows(n_cols, col_size, col_overlap)).T
    )
