"""Slow, obviously correct definitions that the compiled kernels must reproduce exactly."""

from __future__ import annotations

import math

import numpy as np

START, FROM_TRANSCRIPT, FROM_REPORT = 0, 1, 2


def naive_forward(
    gains: np.ndarray, transcript_decay: float, report_decay: float
) -> tuple[list[list[int]], list[list[float]]]:
    """Equations 4, 5 and 7 written cell by cell over Python floats (float64)."""
    rows, cols = gains.shape
    total = [[0.0] * cols for _ in range(rows)]
    decay = [[1.0] * cols for _ in range(rows)]
    direction = [[START] * cols for _ in range(rows)]
    for i in range(rows):
        for j in range(cols):
            gain = float(gains[i, j])
            if i == 0 and j == 0:
                total[i][j] = gain
                continue
            up = total[i - 1][j] * decay[i - 1][j] if i > 0 else -math.inf
            left = total[i][j - 1] * decay[i][j - 1] if j > 0 else -math.inf
            if i > 0 and (j == 0 or up > left):
                direction[i][j] = FROM_TRANSCRIPT
                total[i][j] = gain + up
                same = direction[i - 1][j] == FROM_TRANSCRIPT
                decay[i][j] = decay[i - 1][j] * (1.0 - transcript_decay) if same else 1.0
            else:
                direction[i][j] = FROM_REPORT
                total[i][j] = gain + left
                same = direction[i][j - 1] == FROM_REPORT
                decay[i][j] = decay[i][j - 1] * (1.0 - report_decay) if same else 1.0
    return direction, total


def naive_backtrace(direction: list[list[int]]) -> list[tuple[int, int]]:
    i, j = len(direction) - 1, len(direction[0]) - 1
    path = [(i, j)]
    while direction[i][j] != START:
        if direction[i][j] == FROM_TRANSCRIPT:
            i -= 1
        else:
            j -= 1
        path.append((i, j))
    return path[::-1]


def naive_assign(
    path: list[tuple[int, int]],
    weights: list[float],
    turn_of_row: list[int],
    segment_of_col: list[int],
    n_turns: int,
) -> list[int]:
    """Equation 6: per turn, the segment with the largest summed weight along the path; turns
    the path never visits (no sentences) take -2 so callers can tell them apart."""
    sums: dict[tuple[int, int], float] = {}
    for (i, j), weight in zip(path, weights, strict=True):
        key = (turn_of_row[i], segment_of_col[j])
        sums[key] = sums.get(key, 0.0) + weight
    labels = []
    for turn in range(n_turns):
        candidates = sorted((segment, value) for (t, segment), value in sums.items() if t == turn)
        if not candidates:
            labels.append(-2)
            continue
        best = max(value for _, value in candidates)
        labels.append(next(segment for segment, value in candidates if value == best))
    return labels
