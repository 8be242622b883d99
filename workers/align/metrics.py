"""Alignment quality measured exactly as the public_meetings paper's code does.

The unit is the reference transcript turn; a label is the index of the turn's report segment
or -1 (unaligned). Unaligned reference turns stay in every denominator, so a system that
never abstains cannot score them. WindowDiff compares boundary flags with nltk's semantics and
the paper's window size, which is why `window_size` uses Python's `round` (banker's rounding).
When that window rounds to 0 (reference segments under about four turns on average) or there
is nothing to window, a meeting's WindowDiff and Pk are undefined: None here, null in JSON,
"n/a" in text, never a 0 that would read as a perfect score. The micro-average keeps the
paper's scorer's definition (such a meeting's turns count, at 0, in the turn-weighted mean:
that is how the published 15.05 is reproduced) and is None only when no meeting has a window.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from workers.align.corpus import item_position
from workers.align.document_model import UNALIGNED


@dataclass(frozen=True)
class MeetingScores:
    """Raw counts for one meeting, kept un-normalised so meetings can be micro-averaged."""

    turns: int
    words: int
    segment_hits: int
    word_hits: int
    windowdiff: float | None
    pk: float | None
    """Fractions; None when undefined (see the module's docstring)."""
    unaligned_true_positives: int
    unaligned_predicted: int
    unaligned_reference: int

    @property
    def segment_accuracy(self) -> float:
        return 100.0 * self.segment_hits / self.turns if self.turns else 0.0

    @property
    def word_accuracy(self) -> float:
        return 100.0 * self.word_hits / self.words if self.words else 0.0


@dataclass(frozen=True)
class Summary:
    """Micro-averaged figures in percent (WindowDiff and Pk weighted by turn count, as the
    paper's scorer does; None when no meeting has them defined)."""

    meetings: int
    turns: int
    segment_accuracy: float
    word_accuracy: float
    windowdiff: float | None
    pk: float | None
    unaligned_precision: float
    unaligned_recall: float

    @property
    def windowdiff_penalty(self) -> float:
        """WindowDiff as the balanced objective subtracts it: 0 where undefined, the same for
        every setting scored on the same meetings, so rankings are unchanged."""
        return self.windowdiff or 0.0

    def as_dict(self) -> dict[str, float | int | None]:
        return {
            "meetings": self.meetings,
            "turns": self.turns,
            "segment_accuracy": self.segment_accuracy,
            "word_accuracy": self.word_accuracy,
            "windowdiff": self.windowdiff,
            "pk": self.pk,
            "unaligned_precision": self.unaligned_precision,
            "unaligned_recall": self.unaligned_recall,
        }


def boundary_flags(labels: Sequence[int] | np.ndarray) -> np.ndarray:
    """Flags for all turns but the last: 1 where the label changes, the first turn always 1."""
    labels = np.asarray(labels)
    if len(labels) < 2:
        return np.zeros(0, dtype=np.int8)
    flags = np.empty(len(labels) - 1, dtype=np.int8)
    flags[0] = 1
    flags[1:] = labels[1:-1] != labels[:-2]
    return flags


def window_size(reference_flags: np.ndarray) -> int:
    """The paper's k: half the mean reference segment length minus one, Python-rounded."""
    ones = int(np.count_nonzero(reference_flags))
    if ones == 0:
        return 0
    return max(0, round(0.5 * len(reference_flags) / ones - 1))


def _window_counts(flags: np.ndarray, k: int) -> np.ndarray:
    """Boundaries inside each of the len(flags) - k + 1 windows of width k (nltk's windows)."""
    cumulative = np.concatenate(([0], np.cumsum(flags, dtype=np.int64)))
    return cumulative[k:] - cumulative[: len(cumulative) - k]


def windowdiff(reference_flags: np.ndarray, hypothesis_flags: np.ndarray, k: int) -> float | None:
    """nltk.metrics.segmentation.windowdiff(hyp, ref, k) for 0/1 arrays, as a fraction; None
    for a window of 0 or no flags, where it is undefined."""
    if len(reference_flags) != len(hypothesis_flags):
        raise ValueError("segmentations have unequal length")
    if k <= 0 or len(reference_flags) == 0:
        return None
    if k > len(reference_flags):
        raise ValueError("window width exceeds segmentation length")
    differs = _window_counts(reference_flags, k) != _window_counts(hypothesis_flags, k)
    return float(np.count_nonzero(differs)) / (len(reference_flags) - k + 1.0)


def pk(reference_flags: np.ndarray, hypothesis_flags: np.ndarray, k: int) -> float | None:
    """Beeferman's Pk with nltk's windows, using the same k as WindowDiff for comparability;
    None where WindowDiff is."""
    if len(reference_flags) != len(hypothesis_flags):
        raise ValueError("segmentations have unequal length")
    if k <= 0 or len(reference_flags) == 0:
        return None
    reference_has = _window_counts(reference_flags, k) > 0
    hypothesis_has = _window_counts(hypothesis_flags, k) > 0
    return float(np.count_nonzero(reference_has != hypothesis_has)) / (
        len(reference_flags) - k + 1.0
    )


def score_meeting(
    reference: Sequence[int] | np.ndarray,
    predicted: Sequence[int] | np.ndarray,
    word_counts: Sequence[int] | np.ndarray,
) -> MeetingScores:
    reference = np.asarray(reference, dtype=np.int64)
    predicted = np.asarray(predicted, dtype=np.int64)
    word_counts = np.asarray(word_counts, dtype=np.int64)
    if not (reference.shape == predicted.shape == word_counts.shape) or reference.ndim != 1:
        raise ValueError(
            f"reference {reference.shape}, predicted {predicted.shape} and word counts "
            f"{word_counts.shape} must be equal-length vectors"
        )
    hits = reference == predicted
    reference_flags = boundary_flags(reference)
    hypothesis_flags = boundary_flags(predicted)
    k = window_size(reference_flags)
    reference_unaligned = reference == UNALIGNED
    predicted_unaligned = predicted == UNALIGNED
    return MeetingScores(
        turns=len(reference),
        words=int(word_counts.sum()),
        segment_hits=int(hits.sum()),
        word_hits=int(word_counts[hits].sum()),
        windowdiff=windowdiff(reference_flags, hypothesis_flags, k),
        pk=pk(reference_flags, hypothesis_flags, k),
        unaligned_true_positives=int(np.count_nonzero(reference_unaligned & predicted_unaligned)),
        unaligned_predicted=int(np.count_nonzero(predicted_unaligned)),
        unaligned_reference=int(np.count_nonzero(reference_unaligned)),
    )


def merge_subturns(
    turn_ids: Sequence[str],
    reference: Sequence[int] | np.ndarray,
    predicted: Sequence[int] | np.ndarray,
    word_counts: Sequence[int] | np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Collapse corpus sub-turns `0_<j>_<z>` into turn j, as the paper's scorer does.

    One meeting's reference splits some ASR turns into sub-turns; the published figures (and
    the calibration 69.48 / 79.18 / 15.05) count each ASR turn once, labelled by its first
    sub-turn and weighted by all its words. Ids outside the corpus pattern stay separate units.
    """
    reference = np.asarray(reference, dtype=np.int64)
    predicted = np.asarray(predicted, dtype=np.int64)
    word_counts = np.asarray(word_counts, dtype=np.int64)
    unit_starts: list[int] = []
    unit_of_turn = np.empty(len(turn_ids), dtype=np.int64)
    previous_key: int | None = None
    for position, turn_id in enumerate(turn_ids):
        key = item_position(turn_id)
        if key is None or key != previous_key:
            unit_starts.append(position)
        unit_of_turn[position] = len(unit_starts) - 1
        previous_key = key
    starts = np.asarray(unit_starts, dtype=np.int64)
    merged_words = np.bincount(unit_of_turn, weights=word_counts, minlength=len(starts))
    return reference[starts], predicted[starts], merged_words.astype(np.int64)


def micro_average(scores: Sequence[MeetingScores]) -> Summary:
    turns = sum(s.turns for s in scores)
    words = sum(s.words for s in scores)
    predicted = sum(s.unaligned_predicted for s in scores)
    relevant = sum(s.unaligned_reference for s in scores)
    found = sum(s.unaligned_true_positives for s in scores)
    return Summary(
        meetings=len(scores),
        turns=turns,
        segment_accuracy=100.0 * sum(s.segment_hits for s in scores) / turns if turns else 0.0,
        word_accuracy=100.0 * sum(s.word_hits for s in scores) / words if words else 0.0,
        windowdiff=_benchmark_mean([(s.windowdiff, s.turns) for s in scores], turns),
        pk=_benchmark_mean([(s.pk, s.turns) for s in scores], turns),
        unaligned_precision=100.0 * found / predicted if predicted else 0.0,
        unaligned_recall=100.0 * found / relevant if relevant else 0.0,
    )


def _benchmark_mean(values: Sequence[tuple[float | None, int]], turns: int) -> float | None:
    """In percent, the defined fractions weighted by their turns over all `turns` (an undefined
    meeting's turns count at 0, as in the paper's scorer); None if none is defined."""
    if not turns or all(value is None for value, _ in values):
        return None
    return 100.0 * sum(value * weight for value, weight in values if value is not None) / turns
