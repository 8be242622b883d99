"""A monotone path that may leave transcript sentences unaligned: the paper's path plus gaps.

The paper's path (dp.py) must give every transcript sentence a report sentence, so a turn
the report never mentions, or a whole stretch of a transcript that barely matches its report,
is aligned anyway. Here a path is a sequence of cells in one of two states:

- matched, M[i, j]: transcript sentence i is aligned with report sentence j and the cell
  collects g[i, j] - match_offset. It is entered, as in equation 4, from (i-1, j) or (i, j-1),
  or from a gap at (i-1, j) at a cost gap_open;
- gap, X[i, j]: transcript sentence i is unaligned, the path's report position is j. Each
  sentence in a gap collects skip_gain; opening a gap from M costs gap_open; inside a gap the
  report position moves forward for free (report passages with no transcript counterpart).

    M[i, j] = (g[i, j] - offset) + max(M[i-1, j], M[i, j-1], X[i-1, j] - gap_open)
    X[i, j] = max(skip_gain + max(X[i-1, j], M[i-1, j] - gap_open), X[i, j-1])

with a virtual row -1 where M = 0 at j = 0 (the paper's start) and X = 0 everywhere; the path
ends at (n-1, m-1) in either state. The affine gap cost is what makes the gaps long: a single
weak sentence inside a matched stretch is cheaper to keep than to cut out, while a long run of
sentences below the offset is cut out as a whole. With calibrated scores (centred cosines,
0 for unrelated text) one offset transfers across meetings.

Ties prefer, for M: the previous transcript sentence, then the previous report sentence, then
closing a gap; for X: staying in the gap, then opening one, then moving along the report; at
the end, M. NaN gains make every comparison false and so follow the first choice;
`workers/align/reference/gapped_dp.py` is the slow definition the kernels must equal.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from workers.align.paths.dp import NanPolicy, validate_scores
from workers.align.setting_fields import setting

MATCH_START = np.uint8(0)
MATCH_FROM_PREVIOUS_TRANSCRIPT_SENTENCE = np.uint8(1)
MATCH_FROM_PREVIOUS_REPORT_SENTENCE = np.uint8(2)
MATCH_FROM_GAP = np.uint8(3)
GAP_FROM_PREVIOUS_REPORT_SENTENCE = np.uint8(1)
GAP_FROM_GAP = np.uint8(2)
GAP_FROM_MATCH = np.uint8(3)
GAP_SHIFT = 2
"""One byte per cell: bits 0-1 say where M came from, bits 2-3 where X came from."""

UNALIGNED_COLUMN = -1


@numba.njit(
    "void(float32[:, ::1], float64, float64, float64, uint8[:, ::1], float64[::1])",
    cache=True,
    nogil=True,
)
def _gapped_forward_kernel(
    gains: np.ndarray,
    match_offset: float,
    skip_gain: float,
    gap_open: float,
    directions: np.ndarray,
    finals: np.ndarray,
) -> None:  # pragma: no cover
    """Fill directions (n, m) from gains (n, m); finals (2,) gets M and X at (n-1, m-1).

    One row of M and X (float64) is updated in place: cell j only reads column j of the row
    above and the cell to its left, so memory is one byte per cell.
    """
    n_rows, n_cols = gains.shape
    match_above = np.full(n_cols, -np.inf, dtype=np.float64)
    gap_above = np.zeros(n_cols, dtype=np.float64)
    match_above[0] = 0.0
    for i in range(n_rows):
        match_left = -np.inf
        gap_left = -np.inf
        direction_row = directions[i]
        gain_row = gains[i]
        for j in range(n_cols):
            best = match_above[j]
            source = MATCH_FROM_PREVIOUS_TRANSCRIPT_SENTENCE
            if match_left > best:
                best = match_left
                source = MATCH_FROM_PREVIOUS_REPORT_SENTENCE
            closing = gap_above[j] - gap_open
            if closing > best:
                best = closing
                source = MATCH_FROM_GAP
            match_left = best + (np.float64(gain_row[j]) - match_offset)

            gap = skip_gain + gap_above[j]
            gap_source = GAP_FROM_GAP
            opening = skip_gain + (match_above[j] - gap_open)
            if opening > gap:
                gap = opening
                gap_source = GAP_FROM_MATCH
            if gap_left > gap:
                gap = gap_left
                gap_source = GAP_FROM_PREVIOUS_REPORT_SENTENCE
            gap_left = gap

            match_above[j] = match_left
            gap_above[j] = gap_left
            direction_row[j] = source | (gap_source << GAP_SHIFT)
        if i == 0:
            # (0, 0) can only come from the virtual start: M = 0 there beats -inf on the left
            # and -gap_open (<= 0) from the gap, and ties keep the first choice.
            directions[0, 0] = MATCH_START | (directions[0, 0] & ~np.uint8(3))
    finals[0] = match_above[n_cols - 1]
    finals[1] = gap_above[n_cols - 1]


@numba.njit("int64(uint8[:, ::1], boolean, int64[::1], int64[::1])", cache=True, nogil=True)
def _gapped_backtrace_kernel(
    directions: np.ndarray,
    end_in_gap: bool,
    cell_rows: np.ndarray,
    cell_cols: np.ndarray,
) -> int:  # pragma: no cover
    """Write the path's cells, last first, into cell_rows/cell_cols (n+m); return their count.

    A matched cell is (i, j); a transcript sentence in a gap is (i, UNALIGNED_COLUMN). Free
    moves along the report inside a gap write nothing.
    """
    n_rows, n_cols = directions.shape
    i = n_rows - 1
    j = n_cols - 1
    in_gap = end_in_gap
    count = 0
    while i >= 0:
        direction = directions[i, j]
        if in_gap:
            source = (direction >> GAP_SHIFT) & 3
            if source == GAP_FROM_PREVIOUS_REPORT_SENTENCE:
                j -= 1
                continue
            cell_rows[count] = i
            cell_cols[count] = UNALIGNED_COLUMN
            count += 1
            i -= 1
            if source == GAP_FROM_MATCH:
                in_gap = False
        else:
            source = direction & 3
            cell_rows[count] = i
            cell_cols[count] = j
            count += 1
            if source == MATCH_START:
                break
            if source == MATCH_FROM_PREVIOUS_REPORT_SENTENCE:
                j -= 1
            else:
                i -= 1
                if source == MATCH_FROM_GAP:
                    in_gap = True
    return count


@dataclass(frozen=True)
class GappedPath:
    """Cells in path order; `cols` is UNALIGNED_COLUMN where the transcript sentence is in a gap.

    Every transcript sentence has at least one cell; a matched sentence may span several
    report sentences (moves along the report in M), a gap sentence has exactly one cell.
    """

    rows: np.ndarray
    cols: np.ndarray
    score: float

    def __len__(self) -> int:
        return len(self.rows)


@dataclass(frozen=True)
class GapSettings:
    """The paper's path with gaps on raw (preferably centred) similarities: a transcript
    sentence is matched with a report sentence or left in a gap."""

    match_offset: float = setting(
        0.35, "similarity a matched sentence has to clear (it collects similarity - offset)"
    )
    skip_gain: float = setting(0.0, "what each transcript sentence in a gap collects")
    gap_open: float = setting(3.0, "cost of opening or closing a gap, >= 0")

    def validate(self) -> None:
        for name in ("match_offset", "skip_gain", "gap_open"):
            if not np.isfinite(getattr(self, name)):
                raise ValueError(f"{name} must be finite, got {getattr(self, name)}")
        if self.gap_open < 0:
            raise ValueError(f"gap_open must be >= 0, got {self.gap_open}")


def gapped_forward(gains: np.ndarray, settings: GapSettings) -> tuple[np.ndarray, np.ndarray]:
    """Directions (n, m) uint8 and final (M, X) for already-validated float32 gains."""
    n_rows, n_cols = gains.shape
    directions = np.empty((n_rows, n_cols), dtype=np.uint8)
    finals = np.empty(2, dtype=np.float64)
    _gapped_forward_kernel(
        gains,
        float(settings.match_offset),
        float(settings.skip_gain),
        float(settings.gap_open),
        directions,
        finals,
    )
    return directions, finals


def best_gapped_path(
    scores: np.ndarray, settings: GapSettings, nan_policy: NanPolicy = "raise"
) -> GappedPath:
    """The highest-scoring gapped path through `scores` (transcript x report sentences).

    An empty report leaves every transcript sentence unaligned; an empty transcript has no
    cells.
    """
    settings.validate()
    matrix = validate_scores(scores, nan_policy)
    n_rows, n_cols = matrix.shape
    if n_rows == 0 or n_cols == 0:
        rows = np.arange(n_rows, dtype=np.int64)
        cols = np.full(n_rows, UNALIGNED_COLUMN, dtype=np.int64)
        return GappedPath(rows, cols, float(n_rows * settings.skip_gain))
    directions, finals = gapped_forward(matrix, settings)
    end_in_gap = bool(finals[1] > finals[0])
    cell_rows = np.empty(n_rows + n_cols, dtype=np.int64)
    cell_cols = np.empty(n_rows + n_cols, dtype=np.int64)
    count = _gapped_backtrace_kernel(directions, end_in_gap, cell_rows, cell_cols)
    del directions
    return GappedPath(
        cell_rows[:count][::-1].copy(),
        cell_cols[:count][::-1].copy(),
        float(finals[1] if end_in_gap else finals[0]),
    )


def vote_segments(
    path: GappedPath, turn_of_row: np.ndarray, segment_of_col: np.ndarray, n_turns: int
) -> tuple[np.ndarray, np.ndarray]:
    """Equation 6 with a count weight and 'unaligned' as one more candidate: each turn takes
    the label (segment or -1) with the most path cells over its sentences, -1 first then the
    earliest segment on ties; turns without sentences get -2 (not visited).

    Returns labels and the winning share of the turn's cells (for confidence).
    """
    turn_of_row = np.asarray(turn_of_row, dtype=np.int64)
    segment_of_col = np.asarray(segment_of_col, dtype=np.int64)
    n_segments = int(segment_of_col.max()) + 1 if len(segment_of_col) else 0
    votes = np.zeros((n_turns, n_segments + 1), dtype=np.int64)
    if len(path):
        candidates = np.where(path.cols >= 0, segment_of_col[np.maximum(path.cols, 0)] + 1, 0)
        np.add.at(votes, (turn_of_row[path.rows], candidates), 1)
    totals = votes.sum(axis=1)
    labels = np.where(totals > 0, votes.argmax(axis=1) - 1, -2)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(totals > 0, votes.max(axis=1) / np.maximum(totals, 1), 1.0)
    return labels.astype(np.int64), share
