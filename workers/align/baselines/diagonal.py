"""The paper's first-iteration baseline: a path that keeps to the matrix diagonal.

No similarity is computed; the path advances on the transcript while the ratio of transcript
to report position is below the matrix's aspect ratio, as in the authors' DiagonalAligner.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from workers.align.paths.dp import Path


@dataclass(frozen=True)
class DiagonalSettings:
    """The paper's first-iteration baseline: the matrix diagonal, no similarity needed."""


def diagonal_path(n_rows: int, n_cols: int) -> Path:
    if n_rows == 0 or n_cols == 0:
        empty = np.zeros(0, dtype=np.int64)
        return Path(empty, empty.copy(), np.zeros(0, np.float32), np.zeros(0, np.float32))
    ratio = n_rows / n_cols
    row, col = 0, 0
    rows, cols = [0], [0]
    while row < n_rows - 1 or col < n_cols - 1:
        position_ratio = row if col == 0 else row / col
        if (position_ratio < ratio or col == n_cols - 1) and row + 1 < n_rows:
            row += 1
        else:
            col += 1
        rows.append(row)
        cols.append(col)
    ones = np.ones(len(rows), dtype=np.float32)
    return Path(np.array(rows, np.int64), np.array(cols, np.int64), np.cumsum(ones), ones)
