"""The chain of wrong and right turns, against every assignment of small documents enumerated
and weighed: its marginals and neighbouring pairs, what a review that follows changes leaves,
and the posterior given what the annotator read; the correlation fitted back from gold."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workers.align.annotation.error_runs import (
    doubts_given_read,
    expected_wrong_after_following,
    fit_run_correlation,
    pair_doubts,
)


def chain_probability(
    states: tuple[int, ...], doubts: np.ndarray, correlation: float, floor: float = 0.0
) -> float:
    """P(these wrong (1) and right (0) states) under the chain, from its pairs written out,
    each step's probability kept within `floor` of 0 and 1 as the posterior keeps it."""
    both = pair_doubts(doubts, correlation)

    def marginal(turn: int, state: int) -> float:
        return float(doubts[turn] if state else 1 - doubts[turn])

    probability = marginal(0, states[0])
    for turn in range(1, len(states)):
        previous, state = states[turn - 1], states[turn]
        joint = {
            (1, 1): both[turn - 1],
            (1, 0): doubts[turn - 1] - both[turn - 1],
            (0, 1): doubts[turn] - both[turn - 1],
            (0, 0): 1 - doubts[turn - 1] - doubts[turn] + both[turn - 1],
        }[(previous, state)]
        before = marginal(turn - 1, previous)
        step = joint / before if before > 0 else 0.0
        other = 1 - step
        if floor:
            step, other = np.clip(step, floor, 1 - floor), np.clip(other, floor, 1 - floor)
            step /= step + other
        probability *= step
    return probability


def assignments(n_turns: int):
    return itertools.product((0, 1), repeat=n_turns)


def left_after_following(states: tuple[int, ...], shown: np.ndarray) -> int:
    """Wrong turns a review that fixes the shown ones and follows every change leaves:
    those whose maximal run of wrong turns holds no shown turn."""
    left = 0
    turn = 0
    while turn < len(states):
        if not states[turn]:
            turn += 1
            continue
        end = turn
        while end < len(states) and states[end]:
            end += 1
        if not shown[turn:end].any():
            left += end - turn
        turn = end
    return left


documents = st.integers(1, 8).flatmap(
    lambda n: st.tuples(
        st.lists(st.floats(0.0, 1.0), min_size=n, max_size=n),
        st.lists(st.booleans(), min_size=n, max_size=n),
        st.lists(st.booleans(), min_size=n, max_size=n),
        st.floats(0.0, 1.0),
    )
)


@settings(max_examples=200, deadline=None)
@given(documents)
def test_the_chain_has_the_confidences_as_marginals(document):
    confidences, _, _, correlation = document
    doubts = 1 - np.array(confidences)
    weights = {s: chain_probability(s, doubts, correlation) for s in assignments(len(doubts))}
    assert sum(weights.values()) == pytest.approx(1.0, abs=1e-9)
    for turn, doubt in enumerate(doubts):
        assert sum(w for s, w in weights.items() if s[turn]) == pytest.approx(doubt, abs=1e-9)
    for turn, both in enumerate(pair_doubts(doubts, correlation)):
        paired = sum(w for s, w in weights.items() if s[turn] and s[turn + 1])
        assert paired == pytest.approx(both, abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(documents)
def test_what_following_changes_leaves_matches_every_assignment_weighed(document):
    confidences, shown, _, correlation = document
    doubts = 1 - np.array(confidences)
    shown = np.array(shown)
    enumerated = sum(
        chain_probability(s, doubts, correlation) * left_after_following(s, shown)
        for s in assignments(len(doubts))
    )
    assert expected_wrong_after_following(np.array(confidences), shown, correlation) == (
        pytest.approx(enumerated, abs=1e-9)
    )


@settings(max_examples=200, deadline=None)
@given(documents)
def test_the_posterior_given_the_read_turns_matches_every_assignment_weighed(document):
    confidences, read, kept, correlation = document
    doubts = np.clip(1 - np.array(confidences), 1e-4, 1 - 1e-4)
    read, kept = np.array(read), np.array(kept)
    consistent = [
        (s, chain_probability(s, doubts, correlation, floor=1e-4))
        for s in assignments(len(doubts))
        if all(s[t] == (0 if kept[t] else 1) for t in np.flatnonzero(read))
    ]
    evidence = sum(w for _, w in consistent)
    posterior = doubts_given_read(np.array(confidences), read, kept, correlation)
    for turn in range(len(doubts)):
        if read[turn]:
            assert posterior[turn] == 0.0
        else:
            wrong = sum(w for s, w in consistent if s[turn]) / evidence
            assert posterior[turn] == pytest.approx(wrong, abs=1e-7)


def test_with_no_correlation_a_hidden_turn_keeps_its_own_doubt():
    rng = np.random.default_rng(3)
    confidences = rng.uniform(0.01, 0.99, 200)
    read = rng.random(200) < 0.4
    kept = rng.random(200) < 0.7
    assert np.allclose(
        doubts_given_read(confidences, read, kept, 0.0), np.where(read, 0.0, 1 - confidences)
    )


def test_following_changes_leaves_less_the_longer_the_runs():
    confidences = np.full(40, 0.8)
    shown = np.zeros(40, bool)
    shown[::5] = True
    left = [expected_wrong_after_following(confidences, shown, c) for c in (0.0, 0.4, 0.8)]
    assert left[0] > left[1] > left[2]
    assert left[0] < (1 - confidences[~shown]).sum()


def test_a_hidden_turn_next_to_a_kept_one_is_less_doubtful_when_errors_run():
    confidences = np.full(5, 0.8)
    read = np.array([False, False, True, False, False])
    kept = np.array([True, True, True, True, True])
    independent = doubts_given_read(confidences, read, kept, 0.0)
    running = doubts_given_read(confidences, read, kept, 0.6)
    assert running[1] < independent[1] == pytest.approx(0.2)
    assert running[1] < running[0]


def test_the_fitted_correlation_gives_the_gold_its_count_of_neighbouring_wrong_pairs():
    rng = np.random.default_rng(0)
    doubts = [rng.uniform(0.05, 0.4, 300) for _ in range(4)]
    truth = 0.5
    wrong = []
    for d in doubts:
        states = np.zeros(len(d), bool)
        both = pair_doubts(d, truth)
        states[0] = rng.random() < d[0]
        for turn in range(1, len(d)):
            if states[turn - 1]:
                p = both[turn - 1] / d[turn - 1]
            else:
                p = (d[turn] - both[turn - 1]) / (1 - d[turn - 1])
            states[turn] = rng.random() < p
        wrong.append(states)
    fitted = fit_run_correlation([1 - d for d in doubts], wrong)
    assert abs(fitted - truth) < 0.15


def test_a_calibration_off_on_a_document_is_not_read_as_runs():
    rng = np.random.default_rng(1)
    wrong = rng.random(400) < 0.3
    optimistic = np.full(400, 0.95)
    assert fit_run_correlation([optimistic], [wrong]) < 0.1


def test_gold_without_runs_fits_no_correlation_and_gold_of_long_runs_a_strong_one():
    confidences = [np.full(100, 0.5)]
    alternating = np.arange(100) % 2 == 0
    blocks = (np.arange(100) // 10) % 2 == 0
    assert fit_run_correlation(confidences, [alternating]) == 0.0
    assert fit_run_correlation(confidences, [blocks]) > 0.7
