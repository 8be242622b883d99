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
segment reaching the maximum, M before X. `workers/align/reference/turn_dp.py` is the slow
definition the kernels must equal.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numba
import numpy as np

from workers.align.document_model import UNALIGNED
from workers.align.paths.blocks import DEFAULT_BLOCKING, Blocking, MatrixRows, ScoreRows
from workers.align.paths.dp import NanPolicy, validate_scores
from workers.align.setting_fields import setting

GAP_STAYS = np.uint8(1)
"""Step bit: X[t, s] came from X[t-1, s] (a gap goes on) rather than from M[t-1, s]."""
GAP_WINS = np.uint8(2)
"""Step bit: X[t, s] > M[t, s], so a path arriving at (t, s) from a later turn is in the gap."""


@numba.njit(
    "void(float64[:, ::1], float64[::1], boolean[::1], float64, float64,"
    " int32[:, ::1], uint8[:, ::1], int64[::1])",
    cache=True,
    nogil=True,
)
def _turn_forward_kernel(
    sums: np.ndarray,
    charge: np.ndarray,
    matchable: np.ndarray,
    unaligned_gain: float,
    gap_open: float,
    sources: np.ndarray,
    steps: np.ndarray,
    end: np.ndarray,
) -> None:  # pragma: no cover
    """Forward pass over E[t, s] = sums[t, s] - charge[t], or -inf where not matchable[s], for
    sums (n_turns, n_segments), charge (n_turns,) and matchable (n_segments,).

    Keeps one row of M and X (float64, updated in place: cell s reads column s of the row
    above before writing it) and records per cell what the backtrace needs, 5 bytes instead
    of the 16 of two float64 matrices: sources (n_turns, n_segments) int32, for t >= 1 the
    latest s' <= s maximising max(M, X)[t-1, s'], and steps (n_turns, n_segments) the
    GAP_STAYS and GAP_WINS bits. end (2,) gets the segment the path ends in (the earliest
    maximising max(M, X) of the last turn) and 1 if it ends in the gap.
    """
    n_turns, n_segments = sums.shape
    match = np.empty(n_segments, dtype=np.float64)
    gap = np.empty(n_segments, dtype=np.float64)
    for t in range(n_turns):
        best_before = -np.inf
        source = 0
        turn_charge = charge[t]
        for s in range(n_segments):
            if t == 0:
                previous_match = -np.inf
                previous_gap = 0.0
            else:
                previous_match = match[s]
                previous_gap = gap[s]
            previous_best = previous_match if previous_match >= previous_gap else previous_gap
            if previous_best >= best_before:
                best_before = previous_best
                source = s
            evidence = sums[t, s] - turn_charge if matchable[s] else -np.inf
            new_match = evidence + best_before
            closing = previous_match - gap_open
            stays = previous_gap >= closing
            new_gap = unaligned_gain + (previous_gap if stays else closing)
            match[s] = new_match
            gap[s] = new_gap
            sources[t, s] = source
            step = GAP_STAYS if stays else np.uint8(0)
            if new_gap > new_match:
                step |= GAP_WINS
            steps[t, s] = step
    last = 0
    best = -np.inf
    for s in range(n_segments):
        value = match[s] if match[s] >= gap[s] else gap[s]
        if value > best:
            best = value
            last = s
    end[0] = last
    end[1] = 1 if gap[last] > match[last] else 0


@numba.njit(
    "void(int32[:, ::1], uint8[:, ::1], int64, boolean, int64[::1])", cache=True, nogil=True
)
def _turn_backtrace_kernel(
    sources: np.ndarray,
    steps: np.ndarray,
    last: int,
    in_gap: bool,
    labels: np.ndarray,
) -> None:  # pragma: no cover
    """Write each turn's segment (or UNALIGNED) into labels (n_turns,), from the end segment
    `last` (in the gap or not) back, following the ties of the module docstring."""
    n_turns = sources.shape[0]
    s = last
    for t in range(n_turns - 1, -1, -1):
        if in_gap:
            labels[t] = UNALIGNED
            in_gap = (steps[t, s] & GAP_STAYS) != 0
            continue
        labels[t] = s
        if t == 0:
            break
        s = sources[t, s]
        in_gap = (steps[t - 1, s] & GAP_WINS) != 0


@dataclass(frozen=True)
class TurnSettings:
    """Whole turns matched with whole segments, in order, or left unaligned (the annotators'
    own task); costs are in words times similarity."""

    match_offset: float = setting(
        0.35, "similarity a turn's sentence has to clear within a segment to count for it"
    )
    baseline_quantile: float | None = setting(
        None, "also subtract this quantile of the sentence's similarities to the whole report"
    )
    unaligned_gain: float = setting(4.0, "what each unaligned turn earns")
    gap_open: float = setting(40.0, "cost of opening a run of unaligned turns, >= 0")

    def validate(self) -> None:
        for name in ("match_offset", "unaligned_gain", "gap_open"):
            if not np.isfinite(getattr(self, name)):
                raise ValueError(f"{name} must be finite, got {getattr(self, name)}")
        if self.gap_open < 0:
            raise ValueError(f"gap_open must be >= 0, got {self.gap_open}")
        if self.baseline_quantile is not None and not 0.0 <= self.baseline_quantile <= 1.0:
            raise ValueError(f"baseline_quantile must be in [0, 1], got {self.baseline_quantile}")


def checked_path_inputs(
    evidence: np.ndarray, charge: np.ndarray | None, matchable: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The turn path's inputs as its kernels take them (contiguous float64 evidence and
    charge, a bool per segment; no charge and every segment matchable when not given), or a
    ValueError naming the one that is wrong."""
    evidence = np.ascontiguousarray(evidence, dtype=np.float64)
    if evidence.ndim != 2:
        raise ValueError(f"evidence must be (turns, segments), got shape {evidence.shape}")
    n_turns, n_segments = evidence.shape
    if np.isnan(evidence).any() or np.isposinf(evidence).any():
        raise ValueError("evidence must not contain NaN or +inf (-inf marks an impossible match)")
    charge = np.zeros(n_turns) if charge is None else np.ascontiguousarray(charge, np.float64)
    if charge.shape != (n_turns,) or not np.isfinite(charge).all():
        raise ValueError(f"charge must be {n_turns} finite numbers, one per turn")
    matchable = (
        np.ones(n_segments, dtype=np.bool_)
        if matchable is None
        else np.ascontiguousarray(matchable, dtype=np.bool_)
    )
    if matchable.shape != (n_segments,):
        raise ValueError(f"matchable needs one flag per segment ({n_segments})")
    return evidence, charge, matchable


def best_turn_labels(
    evidence: np.ndarray,
    settings: TurnSettings,
    charge: np.ndarray | None = None,
    matchable: np.ndarray | None = None,
) -> np.ndarray:
    """Per turn, its segment or UNALIGNED, for the evidence (n_turns, n_segments) less
    `charge` (n_turns,) per turn, -inf in the segments that are not `matchable`
    (n_segments,): how `SegmentView` hands its sums over without a second (turns, segments)
    matrix. An empty report leaves every turn unaligned."""
    settings.validate()
    evidence, charge, matchable = checked_path_inputs(evidence, charge, matchable)
    n_turns, n_segments = evidence.shape
    labels = np.full(n_turns, UNALIGNED, dtype=np.int64)
    if n_turns == 0 or n_segments == 0:
        return labels
    sources = np.empty((n_turns, n_segments), dtype=np.int32)
    steps = np.empty((n_turns, n_segments), dtype=np.uint8)
    end = np.empty(2, dtype=np.int64)
    _turn_forward_kernel(
        evidence,
        charge,
        matchable,
        float(settings.unaligned_gain),
        float(settings.gap_open),
        sources,
        steps,
        end,
    )
    _turn_backtrace_kernel(sources, steps, int(end[0]), bool(end[1]), labels)
    return labels


@numba.njit(
    "void(float32[:, ::1], int64[::1], float64[::1], float64[:, ::1])", cache=True, nogil=True
)
def _weighted_maxima_kernel(
    block: np.ndarray,
    column_bounds: np.ndarray,
    row_words: np.ndarray,
    weighted: np.ndarray,
) -> None:  # pragma: no cover
    """weighted (n_rows, k) = row_words (n_rows,) x the maximum of each row of block
    (n_rows, n_cols) over the columns column_bounds[c]..column_bounds[c + 1] - 1, for the
    k + 1 bounds of k non-empty column ranges (a segment's sentences)."""
    n_rows = block.shape[0]
    n_ranges = column_bounds.shape[0] - 1
    for i in range(n_rows):
        row = block[i]
        words = row_words[i]
        for c in range(n_ranges):
            best = row[column_bounds[c]]
            for j in range(column_bounds[c] + 1, column_bounds[c + 1]):
                if row[j] > best:
                    best = row[j]
            weighted[i, c] = np.float64(best) * words


class SegmentView:
    """A meeting's similarities summed the way the turn path reads them, computed once and
    shared by every turn-path setting tuning tries on the same scores.

    Evidence is linear in the offset and the baseline, so
    E[t, s] = sum_i w_i max_{j in s} g[i, j] - (sum_i w_i baseline_i + offset * sum_i w_i),
    over the sentences i of turn t: the (turns, segments) first term is summed once here and
    a setting only subtracts one number per turn (its `charge`).

    The similarities are read a block of transcript sentences at a time (`blocking`) and each
    block is reduced at once, so the whole (sentences, report sentences) matrix is never held
    unless it fits one block: memory is the (turns, segments) sums plus one block. A turn's
    sentences are summed by numpy over the turn's rows once they are all read (a turn cut by a
    block boundary waits, as rows of sums, for the next block), in numpy's own order: the
    sums are bit for bit those of the whole matrix at once. `quantiles` are the baselines
    read in the same pass; another one costs a pass of its own.
    """

    def __init__(
        self,
        scores: ScoreRows | np.ndarray,
        turn_of_row: np.ndarray,
        n_turns: int,
        row_words: np.ndarray,
        segment_of_col: np.ndarray,
        n_segments: int,
        quantiles: tuple[float, ...] = (),
        blocking: Blocking = DEFAULT_BLOCKING,
        nan_policy: NanPolicy = "raise",
    ) -> None:
        blocking.validate()
        if isinstance(scores, np.ndarray):
            scores = MatrixRows(validate_scores(scores, nan_policy))
        self.source = scores
        n_rows, n_cols = scores.shape
        self.turn_of_row = _owners(turn_of_row, n_rows, n_turns, "turn_of_row")
        self.segment_of_col = _owners(segment_of_col, n_cols, n_segments, "segment_of_col")
        self.row_words = np.asarray(row_words, dtype=np.float64)
        if self.row_words.shape != (n_rows,):
            raise ValueError(f"row_words needs one entry per transcript sentence ({n_rows})")
        for quantile in quantiles:
            _check_quantile(quantile)
        self.n_turns = n_turns
        self.n_segments = n_segments
        self.blocking = blocking
        self.nan_policy: NanPolicy = nan_policy
        self.weighted_maxima = np.zeros((n_turns, n_segments), dtype=np.float64)
        """(turns, segments): sum over a turn's sentences of words x best similarity within
        the segment; 0 for a segment without sentences (the evidence makes it -inf)."""
        self._baseline_sums: dict[float, np.ndarray] = {}
        self._read(tuple(dict.fromkeys(quantiles)), with_maxima=True)

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

    def _read(self, quantiles: tuple[float, ...], with_maxima: bool) -> None:
        """One pass over the blocks: the weighted maxima (when asked) and, per quantile, the
        per-turn baseline sums."""
        n_rows, n_cols = self.source.shape
        baselines = {quantile: np.zeros(n_rows, dtype=np.float64) for quantile in quantiles}
        segments = np.flatnonzero(self.segment_has_sentences)
        column_bounds = np.append(np.searchsorted(self.segment_of_col, segments), n_cols)
        held = np.zeros((0, len(segments)), dtype=np.float64)
        held_from = 0
        for start, stop in self.blocking.row_blocks(n_rows, n_cols) if n_cols else []:
            block = validate_scores(self.source.rows(start, stop), self.nan_policy)
            if block.shape != (stop - start, n_cols):
                raise ValueError(f"rows {start}..{stop} came as {block.shape}")
            for quantile in quantiles:
                baselines[quantile][start:stop] = np.quantile(block, quantile, axis=1)
            if not with_maxima:
                continue
            weighted = np.empty((stop - start, len(segments)), dtype=np.float64)
            _weighted_maxima_kernel(block, column_bounds, self.row_words[start:stop], weighted)
            del block
            held = np.concatenate([held, weighted]) if len(held) else weighted
            owners = self.turn_of_row[held_from:stop]
            done = len(owners)
            if stop < n_rows and self.turn_of_row[stop] == owners[-1]:
                done = int(np.searchsorted(owners, owners[-1]))
            if done:
                turn_starts = np.flatnonzero(np.diff(owners[:done], prepend=-1))
                sums = np.add.reduceat(held[:done], turn_starts, axis=0)
                self.weighted_maxima[np.ix_(owners[turn_starts], segments)] = sums
            held, held_from = held[done:], held_from + done
        for quantile in quantiles:
            self._baseline_sums[quantile] = np.bincount(
                self.turn_of_row,
                weights=self.row_words * baselines[quantile],
                minlength=self.n_turns,
            )

    def baseline_sums(self, quantile: float | None) -> np.ndarray:
        """Per turn, the sum over its sentences of words x the sentence's q-quantile of
        similarities to the whole report (0 without a baseline)."""
        if quantile is None:
            return np.zeros(self.n_turns, dtype=np.float64)
        _check_quantile(quantile)
        if quantile not in self._baseline_sums:
            self._read((quantile,), with_maxima=False)
        return self._baseline_sums[quantile]

    def charge(self, match_offset: float, baseline_quantile: float | None) -> np.ndarray:
        """(n_turns,): what a setting subtracts from each turn's sums."""
        return self.baseline_sums(baseline_quantile) + match_offset * self.turn_weights

    def evidence(self, charge: np.ndarray) -> np.ndarray:
        """E (n_turns, n_segments) of the module docstring for a `charge`; a segment without
        sentences cannot be matched (-inf) and a turn without sentences has no evidence either
        way (0). The turn path itself reads the sums and the charge, not this matrix."""
        evidence = self.weighted_maxima - charge[:, None]
        evidence[:, ~self.segment_has_sentences] = -np.inf
        return evidence

    def evidence_at(
        self, charge: np.ndarray, turns: int | np.ndarray, segments: np.ndarray
    ) -> np.ndarray:
        """`evidence(charge)[turns, segments]` (indices, broadcast together) without the whole
        matrix."""
        evidence = self.weighted_maxima[turns, segments] - charge[turns]
        return np.where(self.segment_has_sentences[segments], evidence, -np.inf)


def _check_quantile(quantile: float) -> None:
    if not 0.0 <= quantile <= 1.0:
        raise ValueError(f"baseline quantile must be in [0, 1], got {quantile}")


def _owners(owners: np.ndarray, length: int, count: int, name: str) -> np.ndarray:
    """Owner indices (a sentence's turn or segment), checked sorted and in [0, count)."""
    owners = np.asarray(owners, dtype=np.int64)
    if owners.shape != (length,):
        raise ValueError(f"{name} needs {length} entries, got shape {owners.shape}")
    if length and (np.any(np.diff(owners) < 0) or owners[0] < 0 or owners[-1] >= count):
        raise ValueError(f"{name} must be sorted indices in [0, {count})")
    return owners
