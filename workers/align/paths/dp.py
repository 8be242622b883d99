"""The monotone dynamic programme of equations 4, 5 and 7 of Align-then-Summarize.

Rows are transcript sentences (i), columns report sentences (j). A cell is reached either from
the previous transcript sentence (i-1, j), which the paper calls the horizontal move and decays
by `hd`, or from the previous report sentence (i, j-1), the vertical move decayed by `vd`. The
decay factor D multiplies a cell's total when a neighbour looks at it (A' = A * D), keeps
shrinking while the path goes on in the same direction and is reset to 1 when it turns, so one
report sentence cannot soak up a long run of transcript sentences for free.

Ties go to the (i, j-1) neighbour, as the "otherwise" branch of equation 7 says; NaN gains make
every comparison false, so they follow the same branch and propagate NaN (the wrapper refuses
them unless asked to zero them).

The kernels walk the matrix row by row over contiguous memory, keep the running totals in
float64 and store one uint8 direction per cell (an empty side never reaches them), which is
what makes them thousands of times faster than the paper's Python loop;
`workers/align/reference/dp.py` is the slow definition they must equal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numba
import numpy as np

from workers.align.scoring.normalise import Normalisation
from workers.align.setting_fields import setting

START = np.uint8(0)
FROM_PREVIOUS_TRANSCRIPT_SENTENCE = np.uint8(1)
FROM_PREVIOUS_REPORT_SENTENCE = np.uint8(2)

NanPolicy = Literal["raise", "zero"]
PathWeight = Literal["alignment", "gain", "count"]


@dataclass(frozen=True)
class DpSettings:
    """The paper's path (equations 4-7) on normalised scores, each turn voting by equation 6."""

    normalisation: Normalisation = setting(
        "none", "z-scores per transcript sentence (rows), report sentence (columns) or both"
    )
    power: float = setting(1.0, "p: the normalised similarity is raised to this power")
    transcript_decay: float = setting(
        0.0, "hd: decay of a run along transcript sentences, in [0, 1]"
    )
    report_decay: float = setting(0.0, "vd: decay of a run along report sentences, in [0, 1]")
    path_weight: PathWeight = setting(
        "gain", "what a turn's path cells vote with (equation 6): A, the gain or a count"
    )

    def validate(self) -> None:
        check_decays(self.transcript_decay, self.report_decay)


def check_decays(transcript_decay: float, report_decay: float) -> None:
    for name, value in (("transcript_decay", transcript_decay), ("report_decay", report_decay)):
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"{name} must lie in [0, 1], got {value}")


@numba.njit(
    "float64(float32[:, ::1], float64, float64, uint8[:, ::1], float32[:, ::1])",
    cache=True,
    nogil=True,
)
def _forward_kernel(
    gains: np.ndarray,
    transcript_decay: float,
    report_decay: float,
    directions: np.ndarray,
    totals: np.ndarray,
) -> float:  # pragma: no cover
    """Fill directions (n, m) and totals (n, m) = A from gains (n, m) = S**p; return A[n-1, m-1].

    Only the previous row of A, D and directions is kept (float64); the left neighbour lives in
    scalars so the loop-carried chain stays in registers. `totals` keeps a float32 copy of A
    because equation 6 reads A along the path.
    """
    n_rows, n_cols = gains.shape
    keep_transcript = 1.0 - transcript_decay
    keep_report = 1.0 - report_decay
    above_total = np.empty(n_cols, dtype=np.float64)
    above_decay = np.empty(n_cols, dtype=np.float64)
    above_direction = np.empty(n_cols, dtype=np.uint8)

    left_total = float(gains[0, 0])
    left_decay = 1.0
    left_direction = START
    directions[0, 0] = START
    totals[0, 0] = left_total
    above_total[0] = left_total
    above_decay[0] = 1.0
    above_direction[0] = START
    for j in range(1, n_cols):
        left_total = gains[0, j] + left_total * left_decay
        if left_direction == FROM_PREVIOUS_REPORT_SENTENCE:
            left_decay = left_decay * keep_report
        else:
            left_decay = 1.0
        left_direction = FROM_PREVIOUS_REPORT_SENTENCE
        directions[0, j] = left_direction
        totals[0, j] = left_total
        above_total[j] = left_total
        above_decay[j] = left_decay
        above_direction[j] = left_direction

    for i in range(1, n_rows):
        gain_row = gains[i]
        direction_row = directions[i]
        total_row = totals[i]
        left_total = gain_row[0] + above_total[0] * above_decay[0]
        if above_direction[0] == FROM_PREVIOUS_TRANSCRIPT_SENTENCE:
            left_decay = above_decay[0] * keep_transcript
        else:
            left_decay = 1.0
        left_direction = FROM_PREVIOUS_TRANSCRIPT_SENTENCE
        direction_row[0] = left_direction
        total_row[0] = left_total
        for j in range(1, n_cols):
            from_transcript = above_total[j] * above_decay[j]
            from_report = left_total * left_decay
            above_total[j - 1] = left_total
            above_decay[j - 1] = left_decay
            above_direction[j - 1] = left_direction
            if from_transcript > from_report:
                if above_direction[j] == FROM_PREVIOUS_TRANSCRIPT_SENTENCE:
                    left_decay = above_decay[j] * keep_transcript
                else:
                    left_decay = 1.0
                left_direction = FROM_PREVIOUS_TRANSCRIPT_SENTENCE
                left_total = gain_row[j] + from_transcript
            else:
                if left_direction == FROM_PREVIOUS_REPORT_SENTENCE:
                    left_decay = left_decay * keep_report
                else:
                    left_decay = 1.0
                left_direction = FROM_PREVIOUS_REPORT_SENTENCE
                left_total = gain_row[j] + from_report
            direction_row[j] = left_direction
            total_row[j] = left_total
        above_total[n_cols - 1] = left_total
        above_decay[n_cols - 1] = left_decay
        above_direction[n_cols - 1] = left_direction
    return left_total


@numba.njit("int64(uint8[:, ::1], int64[::1], int64[::1])", cache=True, nogil=True)
def _backtrace_kernel(
    directions: np.ndarray, path_rows: np.ndarray, path_cols: np.ndarray
) -> int:  # pragma: no cover
    """Write the path (0, 0) .. (n-1, m-1) into path_rows/path_cols (n+m-1); return its length."""
    n_rows, n_cols = directions.shape
    i = n_rows - 1
    j = n_cols - 1
    position = n_rows + n_cols - 2
    while True:
        path_rows[position] = i
        path_cols[position] = j
        direction = directions[i, j]
        if direction == FROM_PREVIOUS_TRANSCRIPT_SENTENCE:
            i -= 1
        elif direction == FROM_PREVIOUS_REPORT_SENTENCE:
            j -= 1
        else:
            break
        position -= 1
    return n_rows + n_cols - 1 - position


@dataclass(frozen=True)
class Path:
    """A monotone staircase through the sentence matrix, from (0, 0) to (n-1, m-1).

    `totals` is A (equation 4) at each step, `gains` the S**p collected there.
    """

    rows: np.ndarray
    cols: np.ndarray
    totals: np.ndarray
    gains: np.ndarray

    def __len__(self) -> int:
        return len(self.rows)


def validate_scores(scores: np.ndarray, nan_policy: NanPolicy = "raise") -> np.ndarray:
    """Return a C-contiguous float32 copy-or-view fit for the kernels, or explain the problem."""
    array = np.asarray(scores)
    if array.ndim != 2:
        raise ValueError(f"scores must be a 2-D (transcript, report) matrix, got {array.shape}")
    if not np.issubdtype(array.dtype, np.floating) and not np.issubdtype(array.dtype, np.integer):
        raise TypeError(f"scores must be numeric, got {array.dtype}")
    array = np.ascontiguousarray(array, dtype=np.float32)
    if np.isinf(array).any():
        raise ValueError("scores contain infinities")
    if np.isnan(array).any():
        if nan_policy == "raise":
            raise ValueError("scores contain NaN; pass nan_policy='zero' to treat them as 0")
        if nan_policy != "zero":
            raise ValueError(f"unknown nan_policy {nan_policy!r}")
        array = np.where(np.isnan(array), np.float32(0.0), array)
    return array


def best_path(
    gains: np.ndarray,
    transcript_decay: float = 0.0,
    report_decay: float = 0.0,
    nan_policy: NanPolicy = "raise",
) -> Path:
    """The highest-total monotone path through `gains` (already S**p), with the paper's decays.

    An empty side has no path: the result is empty rather than an error, because a meeting with
    an empty report simply aligns nothing.
    """
    matrix = validate_scores(gains, nan_policy)
    check_decays(transcript_decay, report_decay)
    n_rows, n_cols = matrix.shape
    if n_rows == 0 or n_cols == 0:
        empty = np.zeros(0, dtype=np.int64)
        return Path(empty, empty.copy(), np.zeros(0, np.float32), np.zeros(0, np.float32))
    directions = np.empty((n_rows, n_cols), dtype=np.uint8)
    totals = np.empty((n_rows, n_cols), dtype=np.float32)
    _forward_kernel(matrix, float(transcript_decay), float(report_decay), directions, totals)
    length = n_rows + n_cols - 1
    rows = np.empty(length, dtype=np.int64)
    cols = np.empty(length, dtype=np.int64)
    _backtrace_kernel(directions, rows, cols)
    return Path(rows, cols, totals[rows, cols], matrix[rows, cols])


def forward(
    gains: np.ndarray, transcript_decay: float, report_decay: float
) -> tuple[np.ndarray, np.ndarray, float]:
    """Directions, totals and final total for already-validated float32 gains (tests, bench)."""
    n_rows, n_cols = gains.shape
    directions = np.empty((n_rows, n_cols), dtype=np.uint8)
    totals = np.empty((n_rows, n_cols), dtype=np.float32)
    final = _forward_kernel(gains, float(transcript_decay), float(report_decay), directions, totals)
    return directions, totals, final
