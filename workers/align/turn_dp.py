"""Align whole turns to whole segments: the annotators' own task as a dynamic programme.

Annotators map each transcript turn to one report segment, keeping order, or mark it
irrelevant. The sentence-level paths (dp.py, gapped_dp.py) answer a finer question, which
report sentence each transcript sentence follows, and then vote per turn; inside a long
segment that summarises a long stretch of speech, the report sentences are not in the order
the words were spoken, and a sentence-level monotone path loses the stretch. Here the unit is
the turn:

- evidence E[t, s] = sum over the sentences i of turn t of
  words_i * (max over the sentences j of segment s of g[i, j] - baseline_i - match_offset):
  the best counterpart of each spoken sentence anywhere in the segment, weighted by its
  length (the word-accuracy metric weighs turns by words), less an optional per-sentence
  baseline (a quantile of the sentence's similarities to the whole report, so a sentence that
  resembles everything earns nothing);
- a turn is either matched, M[t, s], or unaligned, X[t, s], with s the last segment used:

    M[t, s] = E[t, s] + max over s' <= s of max(M[t-1, s'], X[t-1, s'])
    X[t, s] = unaligned_gain + max(X[t-1, s], M[t-1, s] - gap_open)

  with M[-1, .] = -inf and X[-1, .] = 0 (the meeting may start anywhere, even unaligned).
  The gain per unaligned turn lets a short turn with little evidence ("merci") drop out; the
  affine gap_open makes a long weak stretch drop out as a whole rather than as scattered turns.

Ties: a matched turn comes from the latest segment s' <= s reaching the maximum, from M before
X; an unaligned turn stays in the gap before leaving a match; the path ends in the earliest
segment reaching the maximum, M before X. `tests/align/reference_turn_dp.py` is the slow
definition the kernels must equal.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numba
import numpy as np

from workers.align.dp import NanPolicy, validate_scores

UNALIGNED = -1


@numba.njit(
    "void(float64[:, ::1], float64, float64, float64[:, ::1], float64[:, ::1])",
    cache=True,
    nogil=True,
)
def _turn_forward_kernel(evidence, unaligned_gain, gap_open, match, gap):  # pragma: no cover
    """Fill match and gap (n_turns, n_segments) from evidence (n_turns, n_segments)."""
    n_turns, n_segments = evidence.shape
    for t in range(n_turns):
        best_before = -np.inf
        for s in range(n_segments):
            if t == 0:
                previous_match = -np.inf
                previous_gap = 0.0
            else:
                previous_match = match[t - 1, s]
                previous_gap = gap[t - 1, s]
            previous_best = previous_match if previous_match >= previous_gap else previous_gap
            if previous_best > best_before:
                best_before = previous_best
            match[t, s] = evidence[t, s] + best_before
            closing = previous_match - gap_open
            gap[t, s] = unaligned_gain + (previous_gap if previous_gap >= closing else closing)


@numba.njit("void(float64[:, ::1], float64[:, ::1], float64, int64[::1])", cache=True, nogil=True)
def _turn_backtrace_kernel(match, gap, gap_open, labels):  # pragma: no cover
    """Write each turn's segment (or UNALIGNED) into labels (n_turns,), following the ties of
    the module docstring."""
    n_turns, n_segments = match.shape
    last = n_turns - 1
    s = 0
    best = -np.inf
    for candidate in range(n_segments):
        value = match[last, candidate]
        if gap[last, candidate] > value:
            value = gap[last, candidate]
        if value > best:
            best = value
            s = candidate
    in_gap = gap[last, s] > match[last, s]
    for t in range(last, -1, -1):
        if in_gap:
            labels[t] = UNALIGNED
            if t > 0:
                in_gap = gap[t - 1, s] >= match[t - 1, s] - gap_open
            continue
        labels[t] = s
        if t == 0:
            break
        source = s
        source_value = -np.inf
        for candidate in range(s, -1, -1):
            value = match[t - 1, candidate]
            if gap[t - 1, candidate] > value:
                value = gap[t - 1, candidate]
            if value > source_value:
                source_value = value
                source = candidate
        s = source
        in_gap = gap[t - 1, s] > match[t - 1, s]


@dataclass(frozen=True)
class TurnSettings:
    """The turn-level path's costs, in units of words times similarity."""

    unaligned_gain: float = 4.0
    gap_open: float = 40.0

    def validate(self) -> None:
        for name in ("unaligned_gain", "gap_open"):
            if not np.isfinite(getattr(self, name)):
                raise ValueError(f"{name} must be finite, got {getattr(self, name)}")
        if self.gap_open < 0:
            raise ValueError(f"gap_open must be >= 0, got {self.gap_open}")


def best_turn_labels(evidence: np.ndarray, settings: TurnSettings) -> np.ndarray:
    """Per turn, its segment or UNALIGNED, for evidence (n_turns, n_segments); an empty report
    leaves every turn unaligned."""
    settings.validate()
    evidence = np.ascontiguousarray(evidence, dtype=np.float64)
    if evidence.ndim != 2:
        raise ValueError(f"evidence must be (turns, segments), got shape {evidence.shape}")
    if np.isnan(evidence).any() or np.isposinf(evidence).any():
        raise ValueError("evidence must not contain NaN or +inf (-inf marks an impossible match)")
    n_turns, n_segments = evidence.shape
    labels = np.full(n_turns, UNALIGNED, dtype=np.int64)
    if n_turns == 0 or n_segments == 0:
        return labels
    match = np.empty((n_turns, n_segments), dtype=np.float64)
    gap = np.empty((n_turns, n_segments), dtype=np.float64)
    _turn_forward_kernel(
        evidence, float(settings.unaligned_gain), float(settings.gap_open), match, gap
    )
    _turn_backtrace_kernel(match, gap, float(settings.gap_open), labels)
    return labels


class SegmentView:
    """A meeting's similarities summed the way the turn path reads them, computed once and
    shared by every turn-path setting tuning tries on the same scores.

    Evidence is linear in the offset and the baseline, so
    E[t, s] = sum_i w_i max_{j in s} g[i, j] - (sum_i w_i baseline_i + offset * sum_i w_i),
    over the sentences i of turn t: the (turns, segments) first term is summed once here and
    a setting only subtracts one number per turn.
    """

    def __init__(
        self,
        scores: np.ndarray,
        turn_of_row: np.ndarray,
        n_turns: int,
        row_words: np.ndarray,
        segment_of_col: np.ndarray,
        n_segments: int,
        nan_policy: NanPolicy = "raise",
    ) -> None:
        self.scores = validate_scores(scores, nan_policy)
        n_rows, n_cols = self.scores.shape
        self.turn_of_row = _owners(turn_of_row, n_rows, n_turns, "turn_of_row")
        self.segment_of_col = _owners(segment_of_col, n_cols, n_segments, "segment_of_col")
        self.row_words = np.asarray(row_words, dtype=np.float64)
        if self.row_words.shape != (n_rows,):
            raise ValueError(f"row_words needs one entry per transcript sentence ({n_rows})")
        self.n_turns = n_turns
        self.n_segments = n_segments
        self._baseline_sums: dict[float, np.ndarray] = {}

    @cached_property
    def turn_weights(self) -> np.ndarray:
        """Per turn, the words of its sentences (0 for a turn without sentences)."""
        return np.bincount(self.turn_of_row, weights=self.row_words, minlength=self.n_turns)

    @cached_property
    def turn_has_sentences(self) -> np.ndarray:
        return np.bincount(self.turn_of_row, minlength=self.n_turns) > 0

    @cached_property
    def segment_has_sentences(self) -> np.ndarray:
        return np.bincount(self.segment_of_col, minlength=self.n_segments) > 0

    @cached_property
    def weighted_maxima(self) -> np.ndarray:
        """(turns, segments): sum over a turn's sentences of words x best similarity within
        the segment; 0 for a segment without sentences (the evidence makes it -inf)."""
        n_rows = self.scores.shape[0]
        sums = np.zeros((self.n_turns, self.n_segments), dtype=np.float64)
        if n_rows == 0 or self.scores.shape[1] == 0:
            return sums
        segments = np.flatnonzero(self.segment_has_sentences)
        column_starts = np.searchsorted(self.segment_of_col, segments)
        maxima = np.maximum.reduceat(self.scores, column_starts, axis=1)
        turns = np.flatnonzero(self.turn_has_sentences)
        row_starts = np.searchsorted(self.turn_of_row, turns)
        weighted = maxima * self.row_words[:, None]
        sums[np.ix_(turns, segments)] = np.add.reduceat(weighted, row_starts, axis=0)
        return sums

    def baseline_sums(self, quantile: float | None) -> np.ndarray:
        """Per turn, the sum over its sentences of words x the sentence's q-quantile of
        similarities to the whole report (0 without a baseline)."""
        if quantile is None or self.scores.shape[1] == 0:
            return np.zeros(self.n_turns, dtype=np.float64)
        if not 0.0 <= quantile <= 1.0:
            raise ValueError(f"baseline quantile must be in [0, 1], got {quantile}")
        if quantile not in self._baseline_sums:
            baseline = np.quantile(self.scores, quantile, axis=1).astype(np.float64)
            self._baseline_sums[quantile] = np.bincount(
                self.turn_of_row, weights=self.row_words * baseline, minlength=self.n_turns
            )
        return self._baseline_sums[quantile]

    def evidence(self, match_offset: float, baseline_quantile: float | None) -> np.ndarray:
        """E (n_turns, n_segments) of the module docstring; a segment without sentences cannot
        be matched (-inf) and a turn without sentences has no evidence either way (0)."""
        charge = self.baseline_sums(baseline_quantile) + match_offset * self.turn_weights
        evidence = self.weighted_maxima - charge[:, None]
        evidence[:, ~self.segment_has_sentences] = -np.inf
        return evidence


def _owners(owners: np.ndarray, length: int, count: int, name: str) -> np.ndarray:
    """Owner indices (a sentence's turn or segment), checked sorted and in [0, count)."""
    owners = np.asarray(owners, dtype=np.int64)
    if owners.shape != (length,):
        raise ValueError(f"{name} needs {length} entries, got shape {owners.shape}")
    if length and (np.any(np.diff(owners) < 0) or owners[0] < 0 or owners[-1] >= count):
        raise ValueError(f"{name} must be sorted indices in [0, {count})")
    return owners
