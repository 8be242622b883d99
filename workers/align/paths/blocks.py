"""Similarities a block of transcript sentences at a time: what keeps the turn path's memory
bounded by the document's turns x segments instead of its sentence pairs.

A document's similarity matrix (transcript sentences x report sentences, float32) grows with
the product of its two sides: 56.5 MiB for public_meetings' largest meeting, 2.5 GiB for all
22 meetings joined into one document, 250 GiB for a document a hundred times that. The turn
path reads each transcript sentence's best similarity within each segment (and, with a
baseline, a quantile of its whole row), so it can score rows a block at a time and reduce each
block at once; `Blocking` says how large a block may be.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Protocol

import numpy as np

MIN_BLOCK_PAIRS = 2**20
"""Fewest sentence pairs in a block that is not the whole matrix: a block costs Python calls and
carries a cut turn's rows to the next, so blocks stay large. Exactness does not depend on it
(any block's rows equal the whole matrix's; see scoring.similarity.PRODUCT_ROWS)."""


class ScoreRows(Protocol):
    """Rows of a (transcript sentences, report sentences) float32 similarity matrix on demand."""

    @property
    def shape(self) -> tuple[int, int]: ...

    def rows(self, start: int, stop: int) -> np.ndarray:
        """(stop - start, n_cols) float32: exactly rows start..stop-1 of the whole matrix."""
        ...


@dataclass(frozen=True, eq=False)
class MatrixRows:
    """A matrix already in memory, read as blocks (tests, tuning on dense scores)."""

    scores: np.ndarray

    @property
    def shape(self) -> tuple[int, int]:
        n_rows, n_cols = self.scores.shape
        return n_rows, n_cols

    def rows(self, start: int, stop: int) -> np.ndarray:
        return self.scores[start:stop]


@dataclass(frozen=True)
class Blocking:
    """How many sentence pairs one block of similarities may hold (2**24 float32 pairs are
    64 MiB), and how few; a matrix that fits is read as one block, which is the dense
    computation itself. Tests cut matrices into blocks far below MIN_BLOCK_PAIRS."""

    max_pairs: int = 2**24
    min_pairs: int = MIN_BLOCK_PAIRS

    def validate(self) -> None:
        if self.min_pairs < 1 or self.max_pairs < 2 * self.min_pairs:
            raise ValueError(
                f"a block needs min_pairs >= 1 and max_pairs >= 2 * min_pairs, got "
                f"{self.min_pairs} and {self.max_pairs}"
            )

    def row_blocks(self, n_rows: int, n_cols: int) -> list[tuple[int, int]]:
        """Row ranges [start, stop) covering 0..n_rows in order, of sizes differing by at most
        one row: each holds at most max_pairs pairs (and one row more), and at least
        min_pairs unless there is only one."""
        self.validate()
        if n_rows == 0:
            return []
        width = max(n_cols, 1)
        count = math.ceil(n_rows * width / self.max_pairs)
        count = max(1, min(count, n_rows // math.ceil(self.min_pairs / width)))
        bounds = np.linspace(0, n_rows, count + 1).round().astype(np.int64)
        return [(int(start), int(stop)) for start, stop in itertools.pairwise(bounds)]


DEFAULT_BLOCKING = Blocking()
