"""How well a turn matches the segment it was given: drives abstention and confidence.

A turn's support is the mean, over its sentences, of the best normalised similarity to any
sentence of its assigned segment. Short turns ("merci", "bonjour") have little evidence and are
the ones annotators most often leave out of the report, so the abstention rule also looks at
the turn's length. Confidence combines the support with the share of the turn's path weight
that went to the chosen segment (a turn the path splits between two segments is uncertain).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from workers.align.document_model import UNALIGNED
from workers.align.layout import SentenceLayout
from workers.align.paths.assign import Assignment
from workers.align.setting_fields import setting


@dataclass(frozen=True)
class Abstention:
    """Turns left unaligned after any path: too short, or too poorly supported."""

    min_words: int = setting(0, "a turn with fewer words is left unaligned")
    min_support: float | None = setting(
        None, "a turn whose best similarity within its segment averages less is left unaligned"
    )


def turn_support(scores: np.ndarray, layout: SentenceLayout, labels: np.ndarray) -> np.ndarray:
    """Per turn, mean over its sentences of the max similarity to its segment (nan if none)."""
    support = np.full(layout.n_turns, np.nan, dtype=np.float64)
    row_bounds = np.searchsorted(layout.turn_of_row, np.arange(layout.n_turns + 1))
    col_bounds = np.searchsorted(layout.segment_of_col, np.arange(layout.n_segments + 1))
    for turn in range(layout.n_turns):
        segment = labels[turn]
        if segment < 0:
            continue
        rows = slice(row_bounds[turn], row_bounds[turn + 1])
        block = scores[rows, col_bounds[segment] : col_bounds[segment + 1]]
        if block.size:
            support[turn] = float(block.max(axis=1).mean())
    return support


def path_share(assignment: Assignment) -> np.ndarray:
    """Fraction of a turn's path weight won by its segment, in [0, 1] (1 for a single segment)."""
    best = assignment.best_sums
    total = assignment.turn_sums
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(np.abs(total) > 0, best / total, 1.0)
    return np.clip(np.nan_to_num(share, nan=1.0), 0.0, 1.0)


def abstain(
    labels: np.ndarray,
    support: np.ndarray,
    word_counts: np.ndarray,
    min_support: float | None,
    min_words: int,
) -> np.ndarray:
    """Labels with UNALIGNED where the turn is too short or too poorly supported."""
    result = labels.copy()
    weak = np.zeros(len(labels), dtype=bool)
    if min_support is not None:
        weak |= np.nan_to_num(support, nan=-np.inf) < min_support
    weak |= word_counts < min_words
    result[weak] = UNALIGNED
    return result


def confidence(
    labels: np.ndarray,
    support: np.ndarray,
    share: np.ndarray,
    word_counts: np.ndarray,
    min_support: float | None,
) -> np.ndarray:
    """In [0, 1]: for an aligned turn, how far its support clears the abstention threshold,
    scaled by the path share and damped for very short turns; for an abstained turn, how far
    below the threshold it is."""
    threshold = 0.0 if min_support is None else min_support
    margin = np.nan_to_num(support, nan=threshold) - threshold
    evidence = 1.0 / (1.0 + np.exp(-4.0 * margin))
    length_trust = 1.0 - np.exp(-np.asarray(word_counts, dtype=np.float64) / 15.0)
    aligned = share * evidence * length_trust
    abstained = (1.0 - evidence) * (1.0 - length_trust * evidence)
    return np.clip(np.where(labels == UNALIGNED, abstained, aligned), 0.0, 1.0)
