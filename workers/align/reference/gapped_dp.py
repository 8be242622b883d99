"""The gapped path written cell by cell over Python floats: the definition gapped_dp must equal."""

from __future__ import annotations

import math

import numpy as np

NEG = -math.inf


def naive_gapped_path(
    gains: np.ndarray, match_offset: float, skip_gain: float, gap_open: float
) -> tuple[list[tuple[int, int]], float]:
    """Cells (row, column or -1 for a sentence in a gap) in path order, and the path's score.

    M[i][j] = (g - offset) + max(M[i-1][j], M[i][j-1], X[i-1][j] - gap_open)
    X[i][j] = max(skip_gain + max(X[i-1][j], M[i-1][j] - gap_open), X[i][j-1])
    Row -1 has M = 0 at column 0 (else -inf) and X = 0; ties take the first option listed.
    """
    rows, cols = gains.shape
    match = [[NEG] * cols for _ in range(rows)]
    gap = [[NEG] * cols for _ in range(rows)]
    match_from = [[""] * cols for _ in range(rows)]
    gap_from = [[""] * cols for _ in range(rows)]

    def match_above(i: int, j: int) -> float:
        if i == 0:
            return 0.0 if j == 0 else NEG
        return match[i - 1][j]

    def gap_above(i: int, j: int) -> float:
        return 0.0 if i == 0 else gap[i - 1][j]

    for i in range(rows):
        for j in range(cols):
            options = [
                ("start" if i == 0 and j == 0 else "up", match_above(i, j)),
                ("left", match[i][j - 1] if j > 0 else NEG),
                ("gap", gap_above(i, j) - gap_open),
            ]
            best_name, best = options[0]
            for name, value in options[1:]:
                if value > best:
                    best_name, best = name, value
            match[i][j] = best + (float(gains[i, j]) - match_offset)
            match_from[i][j] = best_name
            gap_options = [
                ("gap", skip_gain + gap_above(i, j)),
                ("match", skip_gain + (match_above(i, j) - gap_open)),
                ("left", gap[i][j - 1] if j > 0 else NEG),
            ]
            best_name, best = gap_options[0]
            for name, value in gap_options[1:]:
                if value > best:
                    best_name, best = name, value
            gap[i][j] = best
            gap_from[i][j] = best_name

    i, j = rows - 1, cols - 1
    in_gap = gap[i][j] > match[i][j]
    score = gap[i][j] if in_gap else match[i][j]
    cells: list[tuple[int, int]] = []
    while i >= 0:
        if in_gap:
            source = gap_from[i][j]
            if source == "left":
                j -= 1
                continue
            cells.append((i, -1))
            i -= 1
            in_gap = source == "gap"
        else:
            source = match_from[i][j]
            cells.append((i, j))
            if source == "start":
                break
            if source == "left":
                j -= 1
            else:
                i -= 1
                in_gap = source == "gap"
    return cells[::-1], score


def naive_votes(
    cells: list[tuple[int, int]], turn_of_row: list[int], segment_of_col: list[int], n_turns: int
) -> list[int]:
    """Per turn, the label (-1 for gap cells, else the segment) with most cells; -1 first, then
    the earliest segment on ties; -2 for turns without cells."""
    counts: dict[tuple[int, int], int] = {}
    for i, j in cells:
        key = (turn_of_row[i], segment_of_col[j] if j >= 0 else -1)
        counts[key] = counts.get(key, 0) + 1
    labels = []
    for turn in range(n_turns):
        candidates = sorted((label, n) for (t, label), n in counts.items() if t == turn)
        if not candidates:
            labels.append(-2)
            continue
        most = max(n for _, n in candidates)
        labels.append(next(label for label, n in candidates if n == most))
    return labels
