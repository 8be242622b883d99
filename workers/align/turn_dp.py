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
    """A similarity matrix seen per report segment, computed once and reused by every
    turn-path setting tuning tries on the same scores.

    `segment_maxima` (rows, segments): each transcript sentence's best similarity within each
    segment; `baseline(q)` (rows,): the q-quantile of a sentence's similarities to the report.
    """

    def __init__(
        self,
        scores: np.ndarray,
        segment_of_col: np.ndarray,
        n_segments: int,
        nan_policy: NanPolicy = "raise",
    ) -> None:
        self.scores = validate_scores(scores, nan_policy)
        self.segment_of_col = np.asarray(segment_of_col, dtype=np.int64)
        self.n_segments = n_segments
        if len(self.segment_of_col) != self.scores.shape[1]:
            raise ValueError(
                f"{len(self.segment_of_col)} column owners for {self.scores.shape[1]} columns"
            )
        if len(self.segment_of_col) and (
            np.any(np.diff(self.segment_of_col) < 0)
            or self.segment_of_col[0] < 0
            or self.segment_of_col[-1] >= n_segments
        ):
            raise ValueError("segment_of_col must be sorted segment indices in [0, n_segments)")
        self._baselines: dict[float, np.ndarray] = {}

    @cached_property
    def segment_maxima(self) -> np.ndarray:
        n_rows = self.scores.shape[0]
        maxima = np.full((n_rows, self.n_segments), -np.inf, dtype=np.float32)
        if n_rows == 0 or self.n_segments == 0:
            return maxima
        present = np.unique(self.segment_of_col)
        starts = np.searchsorted(self.segment_of_col, present)
        maxima[:, present] = np.maximum.reduceat(self.scores, starts, axis=1)
        return maxima

    def baseline(self, quantile: float | None) -> np.ndarray:
        n_rows, n_cols = self.scores.shape
        if quantile is None or n_cols == 0:
            return np.zeros(n_rows, dtype=np.float64)
        if not 0.0 <= quantile <= 1.0:
            raise ValueError(f"baseline quantile must be in [0, 1], got {quantile}")
        if quantile not in self._baselines:
            self._baselines[quantile] = np.quantile(self.scores, quantile, axis=1).astype(
                np.float64
            )
        return self._baselines[quantile]


def turn_evidence(
    view: SegmentView,
    turn_of_row: np.ndarray,
    n_turns: int,
    row_words: np.ndarray,
    match_offset: float,
    baseline_quantile: float | None,
) -> np.ndarray:
    """E (n_turns, n_segments) of the module docstring; a segment without sentences cannot be
    matched (-inf) and a turn without sentences has no evidence either way (0)."""
    turn_of_row = np.asarray(turn_of_row, dtype=np.int64)
    row_words = np.asarray(row_words, dtype=np.float64)
    maxima = view.segment_maxima
    if len(turn_of_row) != maxima.shape[0] or len(row_words) != maxima.shape[0]:
        raise ValueError("turn_of_row and row_words need one entry per transcript sentence")
    if len(turn_of_row) and (
        np.any(np.diff(turn_of_row) < 0) or turn_of_row[0] < 0 or turn_of_row[-1] >= n_turns
    ):
        raise ValueError("turn_of_row must be sorted turn indices in [0, n_turns)")
    margin = maxima - (view.baseline(baseline_quantile) + match_offset)[:, None]
    weighted = np.where(np.isfinite(margin), margin * row_words[:, None], 0.0)
    evidence = np.zeros((n_turns, view.n_segments), dtype=np.float64)
    if len(turn_of_row):
        turns_present = np.unique(turn_of_row)
        starts = np.searchsorted(turn_of_row, turns_present)
        evidence[turns_present] = np.add.reduceat(weighted, starts, axis=0)
    has_sentences = np.zeros(view.n_segments, dtype=bool)
    has_sentences[view.segment_of_col] = True
    evidence[:, ~has_sentences] = -np.inf
    return evidence
