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

All functions take one document's per-turn arrays; loops are over turns, O(turns).
"""

from __future__ import annotations

from collections.abc import Sequence

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
    hidden = ~np.asarray(shown, bool)
    n_turns = len(doubts)
    if n_turns == 0:
        return 0.0
    both = pair_doubts(doubts, correlation)
    wrong_before = _ratio(both, doubts[1:])
    """P(turn i - 1 wrong | turn i wrong), for i = 1 .. turns - 1."""
    wrong_after = _ratio(both, doubts[:-1])
    """P(turn i + 1 wrong | turn i wrong), for i = 0 .. turns - 2."""
    unseen_before = np.ones(n_turns)
    for turn in range(1, n_turns):
        run_on = wrong_before[turn - 1]
        unseen_before[turn] = (
            1.0 - run_on + (run_on * unseen_before[turn - 1] if hidden[turn - 1] else 0.0)
        )
    unseen_after = np.ones(n_turns)
    for turn in range(n_turns - 2, -1, -1):
        run_on = wrong_after[turn]
        unseen_after[turn] = (
            1.0 - run_on + (run_on * unseen_after[turn + 1] if hidden[turn + 1] else 0.0)
        )
    return float((doubts * unseen_before * unseen_after)[hidden].sum())


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
    forward = np.empty((n_turns, 2))
    forward[0] = np.array([1.0 - doubts[0], doubts[0]]) * likelihood[0]
    forward[0] /= forward[0].sum()
    for turn in range(1, n_turns):
        step = (forward[turn - 1] @ transitions[turn - 1]) * likelihood[turn]
        forward[turn] = step / step.sum()
    backward = np.ones((n_turns, 2))
    for turn in range(n_turns - 2, -1, -1):
        step = transitions[turn] @ (likelihood[turn + 1] * backward[turn + 1])
        backward[turn] = step / step.sum()
    posterior = forward * backward
    wrong = posterior[:, 1] / posterior.sum(axis=1)
    return np.where(read, 0.0, wrong)
