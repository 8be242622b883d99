"""The figures an iteration records per document, as pure functions of label arrays.

Two views of one pre-alignment: how much of it the annotator kept (the paper's human
evaluation, Table 2 and Figure 3) and how it scores against the gold with the benchmark's
metrics (segment and word accuracy, WindowDiff; corpus sub-turns merged as the paper does).
"""

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from workers.align.metrics import merge_subturns, score_meeting


@dataclass(frozen=True)
class CorrectionScores:
    turns: int
    words: int
    unchanged_turns: int
    unchanged_words: int
    human_turn_accuracy: float
    human_word_accuracy: float
    segment_accuracy: float
    word_accuracy: float
    windowdiff: float | None
    """Percent; None when undefined (the gold's segments average under about four turns)."""


def score_correction(
    *,
    pre_alignment: Sequence[int],
    gold: Sequence[int],
    word_counts: Sequence[int],
    turn_keys: Sequence[str],
) -> CorrectionScores:
    """Percentages; a document without turns or words scores 0 rather than dividing by 0."""
    if not len(pre_alignment) == len(gold) == len(word_counts) == len(turn_keys):
        raise ValueError(
            f"{len(pre_alignment)} pre-aligned labels, {len(gold)} gold labels, "
            f"{len(word_counts)} word counts and {len(turn_keys)} turn keys must be as many"
        )
    unchanged = [before == after for before, after in zip(pre_alignment, gold, strict=True)]
    words = sum(word_counts)
    unchanged_words = sum(count for count, kept in zip(word_counts, unchanged, strict=True) if kept)
    automatic = score_meeting(*merge_subturns(turn_keys, gold, pre_alignment, word_counts))
    return CorrectionScores(
        turns=len(gold),
        words=words,
        unchanged_turns=sum(unchanged),
        unchanged_words=unchanged_words,
        human_turn_accuracy=_percent(sum(unchanged), len(gold)),
        human_word_accuracy=_percent(unchanged_words, words),
        segment_accuracy=automatic.segment_accuracy,
        word_accuracy=automatic.word_accuracy,
        windowdiff=None if automatic.windowdiff is None else 100.0 * automatic.windowdiff,
    )


def _percent(part: int, whole: int) -> float:
    return 100.0 * part / whole if whole else 0.0


def summarise(given: Sequence[float | None]) -> dict[str, float | int | None]:
    """What a box plot needs (quartiles by linear interpolation), plus the mean the paper
    reports beside the median, over the defined values (a document's undefined WindowDiff is
    left out); `count` is the documents, and the figures are None when no value is defined
    (an empty iteration, or WindowDiff on short segments only)."""
    values = [value for value in given if value is not None]
    if not values:
        return dict.fromkeys(SUMMARY_FIELDS) | {"count": len(given)}
    q0, q1, q2, q3, q4 = np.percentile(np.asarray(values, dtype=float), [0, 25, 50, 75, 100])
    return {
        "count": len(given),
        "mean": float(np.mean(values)),
        "median": float(q2),
        "min": float(q0),
        "q1": float(q1),
        "q3": float(q3),
        "max": float(q4),
    }


SUMMARY_FIELDS = ("count", "mean", "median", "min", "q1", "q3", "max")
