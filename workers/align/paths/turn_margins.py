"""How much the turn path would lose if a turn were labelled otherwise: its state margins.

The path's labels are the argmax of one global score, but the evidence a turn carries about
its own label is local: a short turn in the middle of a segment's run can be kept there by
its neighbours alone, and a turn between two segments may be one point away from the other
one. The min-marginal of a state (turn t matched with segment s, or t unaligned) is the best
total score of any path through that state; the margin of a turn's label is the best path
through its label less the best path through any other state. It is what a learned decision
most needs to know (a turn the path would give up for almost nothing is the one an annotator
corrects) and it costs one backward pass mirroring `turn_dp`'s forward one:

    BM[t, s] = max(max over s'' >= s of E[t+1, s''] + BM[t+1, s''],
                   unaligned_gain - gap_open + BX[t+1, s])
    BX[t, s] = max(max over s'' >= s of E[t+1, s''] + BM[t+1, s''],
                   unaligned_gain + BX[t+1, s])

with BM[n-1, .] = BX[n-1, .] = 0; the best path through (t, s) matched is M[t, s] + BM[t, s],
and unaligned X[t, s] + BX[t, s], with M and X the forward recurrences of `turn_dp`.
`tests/align/paths/test_turn_margins.py` checks the kernel against every path of small cases.
"""

from __future__ import annotations

import numba
import numpy as np

from workers.align.document_model import UNALIGNED
from workers.align.paths.turn_dp import TurnSettings, checked_path_inputs

MARGIN_CAP = 1e9
"""A margin against a state no path reaches (every segment unmatchable) is infinite; capped
so that the features stay finite."""


@numba.njit(
    "void(float64[:, ::1], float64[::1], boolean[::1], float64, float64, int64[::1],"
    " float64[:, ::1], float64[:, ::1], float64[::1])",
    cache=True,
    nogil=True,
)
def _state_margins_kernel(
    sums: np.ndarray,
    charge: np.ndarray,
    matchable: np.ndarray,
    unaligned_gain: float,
    gap_open: float,
    labels: np.ndarray,
    match: np.ndarray,
    gap: np.ndarray,
    margins: np.ndarray,
) -> None:  # pragma: no cover
    """For E[t, s] = sums[t, s] - charge[t] (-inf where not matchable[s]), sums
    (n_turns, n_segments), charge (n_turns,), matchable (n_segments,) and labels (n_turns,)
    (a segment or UNALIGNED): margins (n_turns,) gets, per turn, the best path through its
    label less the best path through any other state.

    match and gap (n_turns, n_segments) float64 are the forward M and X, filled here (the
    path's own forward pass keeps one row, so that aligning without a learned decision stays
    within its memory bound; the recurrence is run again here, at the cost of the path's
    time, only where margins are asked for); the backward pass keeps one row of BM and BX
    (updated in place from the last segment down, so that the suffix maximum reads each cell
    before it is overwritten).
    """
    n_turns, n_segments = sums.shape
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
            evidence = sums[t, s] - charge[t] if matchable[s] else -np.inf
            match[t, s] = evidence + best_before
            closing = previous_match - gap_open
            gap[t, s] = unaligned_gain + (previous_gap if previous_gap >= closing else closing)
    after_match = np.zeros(n_segments, dtype=np.float64)
    after_gap = np.zeros(n_segments, dtype=np.float64)
    for t in range(n_turns - 1, -1, -1):
        own = -np.inf
        other = -np.inf
        label = labels[t]
        best_gap = -np.inf
        for s in range(n_segments):
            through_gap = gap[t, s] + after_gap[s]
            if through_gap > best_gap:
                best_gap = through_gap
            through_match = match[t, s] + after_match[s]
            if s == label:
                own = through_match
            elif through_match > other:
                other = through_match
        if label == UNALIGNED:
            own = best_gap
        elif best_gap > other:
            other = best_gap
        if own == other:
            margins[t] = 0.0
        else:
            margins[t] = own - other
        if t == 0:
            break
        suffix = -np.inf
        for s in range(n_segments - 1, -1, -1):
            evidence = sums[t, s] - charge[t] if matchable[s] else -np.inf
            onwards = evidence + after_match[s]
            if onwards > suffix:
                suffix = onwards
            closing = unaligned_gain - gap_open + after_gap[s]
            staying = unaligned_gain + after_gap[s]
            after_match[s] = suffix if suffix >= closing else closing
            after_gap[s] = suffix if suffix >= staying else staying


def state_margins(
    evidence: np.ndarray,
    settings: TurnSettings,
    labels: np.ndarray,
    charge: np.ndarray | None = None,
    matchable: np.ndarray | None = None,
) -> np.ndarray:
    """Per turn, the best path through its label (a segment or UNALIGNED) less the best path
    through any other state, in the turn path's own units (words times similarity): positive
    when the path prefers the label, negative for a label the path did not choose (abstention
    may unalign a turn the path matched). Arguments as `turn_dp.best_turn_labels`."""
    settings.validate()
    evidence, charge, matchable = checked_path_inputs(evidence, charge, matchable)
    n_turns, n_segments = evidence.shape
    labels = np.ascontiguousarray(labels, dtype=np.int64)
    if labels.shape != (n_turns,) or np.any((labels < UNALIGNED) | (labels >= n_segments)):
        raise ValueError(f"labels must be {n_turns} segments in [0, {n_segments}) or UNALIGNED")
    margins = np.zeros(n_turns, dtype=np.float64)
    if n_turns == 0 or n_segments == 0:
        return margins
    match = np.empty((n_turns, n_segments), dtype=np.float64)
    gap = np.empty((n_turns, n_segments), dtype=np.float64)
    _state_margins_kernel(
        evidence,
        charge,
        matchable,
        float(settings.unaligned_gain),
        float(settings.gap_open),
        labels,
        match,
        gap,
        margins,
    )
    return np.clip(margins, -MARGIN_CAP, MARGIN_CAP)
