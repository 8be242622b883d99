"""Wrong labels come in runs, and an annotator who follows a changed turn to its neighbours
finds a whole run from any of its turns.

A misplaced boundary puts several turns in a row in the wrong segment, so whether a turn's
label is wrong is not independent of whether its neighbour's is. The calibrated confidences
give each turn's probability of being wrong; a Markov chain over "wrong or right", turn after
turn, with exactly those marginals and one more number, the correlation of neighbouring
turns' wrongness (`run_correlation`), gives the rest: how long runs are, and so how many
wrong turns a review that follows changes still leaves, before the review (the plan) and
after it (given what the annotator kept and changed).

The correlation is fitted on gold, with the calibration (`fit_run_correlation`): the one
under which the chain expects as many pairs of neighbouring wrong turns as the gold has. With
a correlation of 0 the chain is independent turns, and the review's estimates are those that
read the confidences alone.

All functions take one document's per-turn arrays and are O(turns); the two recursions over
turns are numba kernels behind them, checked against every assignment of small documents
enumerated and weighed (tests/align/annotation/test_error_runs.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import numba
import numpy as np

from workers.align.annotation.logit_shift import CONFIDENCE_FLOOR, fit_logit_shift, logit, sigmoid


def pair_doubts(doubts: np.ndarray, correlation: float) -> np.ndarray:
    """P(turn i and turn i + 1 both wrong), per neighbouring pair, for turns wrong with
    probabilities `doubts` whose wrongness has `correlation` with the next turn's, clipped to
    what those two probabilities allow (no pair is likelier than either turn alone, nor less
    likely than both forced together).

    doubts: (turns,) in [0, 1]; returns (turns - 1,)."""
    doubts = np.asarray(doubts, np.float64)
    first, second = doubts[:-1], doubts[1:]
    spread = np.sqrt(first * (1.0 - first) * second * (1.0 - second))
    joint = first * second + correlation * spread
    return np.clip(joint, np.maximum(0.0, first + second - 1.0), np.minimum(first, second))


def fit_run_correlation(
    confidences_per_document: Sequence[np.ndarray], wrong_per_document: Sequence[np.ndarray]
) -> float:
    """The correlation in [0, 1] under which the chain expects as many neighbouring pairs of
    wrong turns, summed over the documents, as `wrong_per_document` has (0 when the gold has
    no more such pairs than independent turns would give, 1 when it has at least as many as
    the most correlated chain).

    Each document's confidences are first shifted (one logit shift) until they expect as many
    wrong turns as it has: a calibration optimistic on a document would otherwise leave its
    surplus of wrong turns, and of pairs of them, to be read as runs. The review measures a
    calibration's error on its own (`workers.align.annotation.review`); this is what is left.
    The expected count rises with the correlation, so a bisection finds it."""
    wrong_per_document = [np.asarray(w, bool) for w in wrong_per_document]
    doubts_per_document = [
        1.0 - sigmoid(logit(c) + fit_logit_shift(logit(c), ~w, 0.0, 0.0))
        for c, w in zip(confidences_per_document, wrong_per_document, strict=True)
    ]
    observed = sum(float((w[:-1] & w[1:]).sum()) for w in wrong_per_document)

    def expected(correlation: float) -> float:
        return sum(float(pair_doubts(d, correlation).sum()) for d in doubts_per_document)

    if observed <= expected(0.0):
        return 0.0
    if observed >= expected(1.0):
        return 1.0
    low, high = 0.0, 1.0
    for _ in range(60):
        middle = 0.5 * (low + high)
        if expected(middle) < observed:
            low = middle
        else:
            high = middle
    return 0.5 * (low + high)


def _ratio(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """numerator / denominator, 0 where the denominator is 0 (a conditional on an impossible
    state, which no term that uses it weighs)."""
    return np.divide(numerator, denominator, out=np.zeros_like(numerator), where=denominator > 0)


def expected_wrong_after_following(
    confidences: np.ndarray, shown: np.ndarray, correlation: float
) -> float:
    """Expected number of wrong labels a review leaves when the annotator fixes the `shown`
    turns and follows every change to the neighbours, to the end of its run: a hidden wrong
    turn stays wrong when no turn of its run of wrong turns is shown.

    Given turn i wrong, the chain's turns before it and after it are independent, so the
    chance that the run reaches no shown turn leftwards and rightwards multiply; each is a
    recursion over the hidden turns next to it. confidences, shown: (turns,)."""
    doubts = 1.0 - np.asarray(confidences, np.float64)
    hidden = np.ascontiguousarray(~np.asarray(shown, bool))
    n_turns = len(doubts)
    if n_turns == 0:
        return 0.0
    both = pair_doubts(doubts, correlation)
    unseen = np.empty(n_turns)
    _unseen_runs_kernel(doubts, _ratio(both, doubts[1:]), _ratio(both, doubts[:-1]), hidden, unseen)
    return float((doubts * unseen)[hidden].sum())


@numba.njit(
    "void(float64[::1], float64[::1], float64[::1], boolean[::1], float64[::1])",
    cache=True,
    nogil=True,
)
def _unseen_runs_kernel(
    doubts: np.ndarray,
    wrong_before: np.ndarray,
    wrong_after: np.ndarray,
    hidden: np.ndarray,
    unseen: np.ndarray,
) -> None:  # pragma: no cover
    """For doubts and hidden (turns,), and per neighbouring pair i, i + 1 (turns - 1,)
    wrong_before[i] = P(turn i wrong | turn i + 1 wrong) and wrong_after[i] = P(turn i + 1
    wrong | turn i wrong): unseen (turns,) gets, per turn, the probability given it wrong that
    its run of wrong turns holds no turn outside `hidden`, leftwards times rightwards."""
    n_turns = len(doubts)
    before = 1.0
    unseen[0] = 1.0
    for turn in range(1, n_turns):
        run_on = wrong_before[turn - 1]
        before = 1.0 - run_on + (run_on * before if hidden[turn - 1] else 0.0)
        unseen[turn] = before
    after = 1.0
    for turn in range(n_turns - 2, -1, -1):
        run_on = wrong_after[turn]
        after = 1.0 - run_on + (run_on * after if hidden[turn + 1] else 0.0)
        unseen[turn] *= after


def doubts_given_read(
    confidences: np.ndarray, read: np.ndarray, kept: np.ndarray, correlation: float
) -> np.ndarray:
    """Per turn, the probability that its label is wrong given what the annotator found on
    the `read` turns (`kept`: the pre-aligned label was right; otherwise it was wrong): 0
    for a read turn, whose label is now the annotator's; for the others, the chain's
    posterior, by the forward-backward recursions. A hidden turn next to a kept one is less
    likely wrong than its confidence alone says when errors come in runs; with a correlation
    of 0 every hidden turn keeps 1 - confidence.

    Which turns were read may depend on what was found on other read turns (shown by the
    threshold, then followed from changes): a choice made on observed outcomes only, so
    conditioning on them is all the evidence there is. Doubts and the chain's steps are kept
    within CONFIDENCE_FLOOR of 0 and 1: a top isotonic bin of 1.0, or a pair at the edge of
    what its two doubts allow (a confident turn next to a doubtful one, strongly correlated),
    would make some read outcome evidence the exact chain calls impossible.
    confidences, read, kept: (turns,)."""
    doubts = np.clip(
        1.0 - np.asarray(confidences, np.float64), CONFIDENCE_FLOOR, 1.0 - CONFIDENCE_FLOOR
    )
    read = np.asarray(read, bool)
    wrong_seen = read & ~np.asarray(kept, bool)
    n_turns = len(doubts)
    if n_turns == 0:
        return np.zeros(0)
    likelihood = np.ones((n_turns, 2))
    likelihood[read & ~wrong_seen, 1] = 0.0
    likelihood[wrong_seen, 0] = 0.0
    both = pair_doubts(doubts, correlation)
    transitions = np.empty((n_turns - 1, 2, 2))
    """transitions[i, a, b] = P(turn i + 1 in state b | turn i in state a); state 1 is wrong."""
    transitions[:, 1, 1] = _ratio(both, doubts[:-1])
    transitions[:, 1, 0] = 1.0 - transitions[:, 1, 1]
    transitions[:, 0, 1] = _ratio(doubts[1:] - both, 1.0 - doubts[:-1])
    transitions[:, 0, 0] = 1.0 - transitions[:, 0, 1]
    transitions = np.clip(transitions, CONFIDENCE_FLOOR, 1.0 - CONFIDENCE_FLOOR)
    transitions /= transitions.sum(axis=2, keepdims=True)
    wrong = np.empty(n_turns)
    _posterior_kernel(np.ascontiguousarray(transitions), likelihood, doubts[0], wrong)
    return np.where(read, 0.0, wrong)


@numba.njit(
    "void(float64[:, :, ::1], float64[:, ::1], float64, float64[::1])",
    cache=True,
    nogil=True,
)
def _posterior_kernel(
    transitions: np.ndarray, likelihood: np.ndarray, first_doubt: float, wrong: np.ndarray
) -> None:  # pragma: no cover
    """Forward-backward over the two states (0 right, 1 wrong) for transitions (turns - 1, 2,
    2), transitions[i, a, b] = P(turn i + 1 in b | turn i in a), likelihood (turns, 2) of what
    was observed per turn and state, and P(turn 0 wrong) = first_doubt: wrong (turns,) gets
    each turn's posterior probability of being wrong. Forward and backward messages are
    normalised per turn; the backward ones are kept (turns x 2), the forward one is a row."""
    n_turns = likelihood.shape[0]
    backward = np.ones((n_turns, 2))
    for turn in range(n_turns - 2, -1, -1):
        total = 0.0
        for a in range(2):
            value = 0.0
            for b in range(2):
                value += transitions[turn, a, b] * likelihood[turn + 1, b] * backward[turn + 1, b]
            backward[turn, a] = value
            total += value
        backward[turn, 0] /= total
        backward[turn, 1] /= total
    right = (1.0 - first_doubt) * likelihood[0, 0]
    wrong_now = first_doubt * likelihood[0, 1]
    for turn in range(n_turns):
        if turn > 0:
            right, wrong_now = (
                (right * transitions[turn - 1, 0, 0] + wrong_now * transitions[turn - 1, 1, 0])
                * likelihood[turn, 0],
                (right * transitions[turn - 1, 0, 1] + wrong_now * transitions[turn - 1, 1, 1])
                * likelihood[turn, 1],
            )
        total = right + wrong_now
        right /= total
        wrong_now /= total
        joint_right = right * backward[turn, 0]
        joint_wrong = wrong_now * backward[turn, 1]
        wrong[turn] = joint_wrong / (joint_right + joint_wrong)
