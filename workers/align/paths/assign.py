"""Equation 6: turn a sentence-level path into one report segment per transcript turn.

Each transcript turn takes the report segment that collects the most weight along the path
over the turn's sentences. The weight is the paper's A (cumulative totals), the gain S**p
collected at each step, or a plain count of path cells (what the authors' code used for the
diagonal baseline). Totals along the path only grow, so A favours the later of two segments a
turn straddles; the gains are the local evidence.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from workers.align.paths.dp import Path, PathWeight

NOT_VISITED = -2
"""Kernel label for a turn without sentences, which the path cannot visit."""


@numba.njit(
    "void(int64[::1], int64[::1], float64[::1], int64[::1], int64[::1],"
    " int64[::1], float64[::1], float64[::1])",
    cache=True,
    nogil=True,
)
def _assign_kernel(
    path_rows: np.ndarray,
    path_cols: np.ndarray,
    weights: np.ndarray,
    turn_of_row: np.ndarray,
    segment_of_col: np.ndarray,
    labels: np.ndarray,
    best_sums: np.ndarray,
    turn_sums: np.ndarray,
) -> None:  # pragma: no cover
    """Per turn, the segment with the largest weight sum along the path (earliest on ties).

    labels/best_sums/turn_sums have one entry per turn and must come in as NOT_VISITED/-inf/0.
    The path is monotone, so each (turn, segment) pair is one contiguous run of steps.
    """
    current_turn = -1
    current_segment = -1
    running = 0.0
    for step in range(path_rows.shape[0]):
        turn = turn_of_row[path_rows[step]]
        segment = segment_of_col[path_cols[step]]
        if turn != current_turn or segment != current_segment:
            if current_turn >= 0:
                turn_sums[current_turn] += running
                if running > best_sums[current_turn]:
                    best_sums[current_turn] = running
                    labels[current_turn] = current_segment
            current_turn = turn
            current_segment = segment
            running = 0.0
        running += weights[step]
    if current_turn >= 0:
        turn_sums[current_turn] += running
        if running > best_sums[current_turn]:
            best_sums[current_turn] = running
            labels[current_turn] = current_segment


@dataclass(frozen=True)
class Assignment:
    """Per turn: chosen segment (NOT_VISITED for turns without sentences), the weight it won
    and the turn's whole weight along the path."""

    labels: np.ndarray
    best_sums: np.ndarray
    turn_sums: np.ndarray


def path_weights(path: Path, weight: PathWeight) -> np.ndarray:
    if weight == "alignment":
        return path.totals.astype(np.float64)
    if weight == "gain":
        return path.gains.astype(np.float64)
    if weight == "count":
        return np.ones(len(path), dtype=np.float64)
    raise ValueError(f"unknown path weight {weight!r}")


def assign_segments(
    path: Path,
    weights: np.ndarray,
    turn_of_row: np.ndarray,
    segment_of_col: np.ndarray,
    n_turns: int,
) -> Assignment:
    weights = np.ascontiguousarray(weights, dtype=np.float64)
    turn_of_row = np.ascontiguousarray(turn_of_row, dtype=np.int64)
    segment_of_col = np.ascontiguousarray(segment_of_col, dtype=np.int64)
    if len(weights) != len(path):
        raise ValueError(f"{len(weights)} weights for a path of {len(path)} steps")
    if np.isnan(weights).any():
        raise ValueError("path weights contain NaN")
    if len(path) and (
        path.rows.max() >= len(turn_of_row) or path.cols.max() >= len(segment_of_col)
    ):
        raise ValueError("path leaves the sentence ranges of turn_of_row/segment_of_col")
    if len(turn_of_row) and (turn_of_row.min() < 0 or turn_of_row.max() >= n_turns):
        raise ValueError("turn_of_row refers to turns outside [0, n_turns)")
    labels = np.full(n_turns, NOT_VISITED, dtype=np.int64)
    best_sums = np.full(n_turns, -np.inf, dtype=np.float64)
    turn_sums = np.zeros(n_turns, dtype=np.float64)
    _assign_kernel(
        np.ascontiguousarray(path.rows, dtype=np.int64),
        np.ascontiguousarray(path.cols, dtype=np.int64),
        weights,
        turn_of_row,
        segment_of_col,
        labels,
        best_sums,
        turn_sums,
    )
    return Assignment(labels, best_sums, turn_sums)


def fill_unvisited(labels: np.ndarray) -> np.ndarray:
    """Give turns without sentences the label of the previous visited turn (else the next), so
    the output stays monotone; a meeting with no visited turn keeps -1 everywhere."""
    labels = labels.copy()
    visited = np.flatnonzero(labels != NOT_VISITED)
    if len(visited) == 0:
        labels[:] = -1
        return labels
    previous = np.maximum.accumulate(np.where(labels != NOT_VISITED, np.arange(len(labels)), -1))
    source = np.where(previous >= 0, previous, visited[0])
    return labels[source]
