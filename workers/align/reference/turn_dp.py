"""The turn-level path written turn by turn over Python floats: the definition turn_dp must
equal, and the evidence computed sentence by sentence."""

from __future__ import annotations

import math

import numpy as np

NEG = -math.inf


def naive_turn_labels(evidence: np.ndarray, unaligned_gain: float, gap_open: float) -> list[int]:
    """M[t][s] = E[t][s] + max over s' <= s of max(M[t-1][s'], X[t-1][s'])
    X[t][s] = gain + max(X[t-1][s], M[t-1][s] - gap_open), with M[-1] = -inf and X[-1] = 0.

    Ties: a match comes from the latest s' reaching the maximum, M before X; a gap stays a
    gap before leaving a match; the end is the earliest segment reaching the maximum, M first.
    """
    n_turns, n_segments = evidence.shape
    if n_turns == 0 or n_segments == 0:
        return [-1] * n_turns
    match = [[NEG] * n_segments for _ in range(n_turns)]
    gap = [[NEG] * n_segments for _ in range(n_turns)]

    def previous(t: int, s: int) -> tuple[float, float]:
        return (NEG, 0.0) if t == 0 else (match[t - 1][s], gap[t - 1][s])

    def best(pair: tuple[float, float]) -> float:
        return pair[0] if pair[0] >= pair[1] else pair[1]

    for t in range(n_turns):
        for s in range(n_segments):
            before = max(best(previous(t, earlier)) for earlier in range(s + 1))
            match[t][s] = float(evidence[t, s]) + before
            previous_match, previous_gap = previous(t, s)
            closing = previous_match - gap_open
            gap[t][s] = unaligned_gain + (previous_gap if previous_gap >= closing else closing)

    labels = [-1] * n_turns
    ends = [best((match[-1][s], gap[-1][s])) for s in range(n_segments)]
    s = ends.index(max(ends))
    in_gap = gap[-1][s] > match[-1][s]
    for t in range(n_turns - 1, -1, -1):
        if in_gap:
            labels[t] = -1
            if t > 0:
                in_gap = gap[t - 1][s] >= match[t - 1][s] - gap_open
            continue
        labels[t] = s
        if t == 0:
            break
        values = [best((match[t - 1][earlier], gap[t - 1][earlier])) for earlier in range(s + 1)]
        top = max(values)
        s = max(earlier for earlier, value in enumerate(values) if value == top)
        in_gap = gap[t - 1][s] > match[t - 1][s]
    return labels


def naive_turn_evidence(
    scores: np.ndarray,
    turn_of_row: list[int],
    segment_of_col: list[int],
    n_turns: int,
    n_segments: int,
    row_words: list[int],
    match_offset: float,
    baseline_quantile: float | None,
) -> np.ndarray:
    evidence = np.zeros((n_turns, n_segments))
    for segment in range(n_segments):
        columns = [j for j, owner in enumerate(segment_of_col) if owner == segment]
        if not columns:
            evidence[:, segment] = NEG
            continue
        for row, turn in enumerate(turn_of_row):
            baseline = 0.0
            if baseline_quantile is not None:
                baseline = float(np.quantile(scores[row], baseline_quantile))
            best = max(float(scores[row, j]) for j in columns)
            evidence[turn, segment] += row_words[row] * (best - (baseline + match_offset))
    return evidence


def whole_matrix_sums(
    scores: np.ndarray,
    turn_of_row: np.ndarray,
    n_turns: int,
    row_words: np.ndarray,
    segment_of_col: np.ndarray,
    n_segments: int,
) -> np.ndarray:
    """The turn path's (turns, segments) sums as the engine computed them before it read
    blocks, from the whole matrix at once with numpy's reductions: the blocked sums must equal
    these bit for bit (numpy sums a turn's rows pairwise, not one after another)."""
    turn_of_row, segment_of_col = np.asarray(turn_of_row), np.asarray(segment_of_col)
    sums = np.zeros((n_turns, n_segments), dtype=np.float64)
    if scores.shape[0] == 0 or scores.shape[1] == 0:
        return sums
    segments = np.flatnonzero(np.bincount(segment_of_col, minlength=n_segments))
    maxima = np.maximum.reduceat(scores, np.searchsorted(segment_of_col, segments), axis=1)
    turns = np.flatnonzero(np.bincount(turn_of_row, minlength=n_turns))
    weighted = maxima * np.asarray(row_words, dtype=np.float64)[:, None]
    sums[np.ix_(turns, segments)] = np.add.reduceat(
        weighted, np.searchsorted(turn_of_row, turns), axis=0
    )
    return sums


def whole_matrix_baseline_sums(
    scores: np.ndarray,
    turn_of_row: np.ndarray,
    n_turns: int,
    row_words: np.ndarray,
    quantile: float,
) -> np.ndarray:
    """Per turn, words x each sentence's quantile of its whole row, as computed before blocks."""
    if scores.shape[1] == 0:
        return np.zeros(n_turns)
    baseline = np.quantile(scores, quantile, axis=1).astype(np.float64)
    return np.bincount(
        turn_of_row, weights=np.asarray(row_words, dtype=np.float64) * baseline, minlength=n_turns
    )
