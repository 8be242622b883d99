from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from workers.align.reference.hmm import naive_viterbi
from workers.align.setting_fields import SettingsError
from workers.align.talks.hmm import (
    HmmSettings,
    stay_probability,
    transitions,
    uniform_start,
    viterbi,
)

log_values = st.sampled_from([0.0, -1.0, -0.5, -2.0, -np.inf]) | st.floats(
    -8, 0, allow_nan=False, allow_infinity=False, width=32
)


@st.composite
def problems(draw):
    n_states = draw(st.integers(0, 6))
    n_vocabulary = draw(st.integers(1, 4))
    table = draw(arrays(np.float32, (n_vocabulary, n_states), elements=log_values))
    observations = draw(st.lists(st.integers(0, n_vocabulary - 1), max_size=12))
    allowed = draw(arrays(np.bool_, (n_states,)))
    hmm = HmmSettings(
        stay_scale=draw(st.sampled_from([0.33, 0.5, 0.9])),
        stay_floor=draw(st.sampled_from([0.1, 0.5])),
        distance_decay=draw(st.sampled_from([0.75, 0.5, 0.25])),
        backward_factor=draw(st.sampled_from([0.5, 0.9])),
    )
    return table, observations, allowed, hmm


@settings(max_examples=600, deadline=None)
@given(problems())
def test_fast_decoder_equals_dense_definition_including_ties_and_minus_infinity(problem):
    table, observations, allowed, hmm = problem
    moves = transitions(table.shape[1], len(observations), hmm)
    start = uniform_start(allowed)
    decoded = viterbi(table, np.array(observations, dtype=np.int64), start, moves)
    path, score = naive_viterbi(table, observations, start, moves)
    assert decoded.states.tolist() == path
    assert decoded.log_probability == score or (math.isinf(score) and score < 0)
    assert (decoded.log_probability == -math.inf) == (score == -math.inf)


@pytest.mark.parametrize("n_states", [1, 2, 5, 40])
@pytest.mark.parametrize("n_words", [1, 3, 100])
def test_rows_are_the_papers_distribution(n_states, n_words):
    hmm = HmmSettings()
    probabilities = np.exp(transitions(n_states, n_words, hmm).dense())
    np.testing.assert_allclose(probabilities.sum(axis=1), 1.0, rtol=1e-12)
    alpha = stay_probability(n_states, n_words, hmm)
    np.testing.assert_allclose(np.diag(probabilities), alpha if n_states > 1 else 1.0)
    for k in range(n_states):
        for j in range(1, n_states):
            if k + j < n_states and k + j + 1 < n_states:
                assert probabilities[k, k + j + 1] == pytest.approx(
                    hmm.distance_decay * probabilities[k, k + j]
                )
            if k - j >= 0 and k + j < n_states:
                assert probabilities[k, k - j] == pytest.approx(
                    hmm.backward_factor * probabilities[k, k + j]
                )


def test_stay_probability_follows_words_per_sentence():
    hmm = HmmSettings()
    assert stay_probability(10, 1000, hmm) == pytest.approx(0.33 * 0.99)
    assert stay_probability(10, 11, hmm) == pytest.approx(0.1)
    assert stay_probability(1, 5, hmm) == 1.0


def test_one_state_one_word_and_empty():
    moves = transitions(1, 1, HmmSettings())
    one = viterbi(np.array([[-0.5]]), np.array([0]), np.zeros(1), moves)
    assert one.states.tolist() == [0]
    assert one.log_probability == pytest.approx(-0.5)
    three = transitions(3, 0, HmmSettings())
    empty = viterbi(np.zeros((1, 3)), np.zeros(0, dtype=np.int64), uniform_start(np.ones(3)), three)
    assert empty.states.tolist() == []
    assert empty.log_probability == 0.0
    stateless = viterbi(
        np.zeros((2, 0)), np.array([0, 1]), np.zeros(0), transitions(0, 2, HmmSettings())
    )
    assert stateless.states.tolist() == [-1, -1]
    assert stateless.log_probability == -math.inf


def test_decoder_follows_a_spoken_order_and_refuses_bad_input():
    n_states = 30
    table = np.full((n_states, n_states), np.log(0.001), dtype=np.float32)
    np.fill_diagonal(table, np.log(0.9))
    spoken = np.repeat(np.arange(n_states), 5)
    start = uniform_start(np.ones(n_states, dtype=bool))
    decoded = viterbi(table, spoken, start, transitions(n_states, len(spoken), HmmSettings()))
    assert decoded.states.tolist() == spoken.tolist()
    with pytest.raises(ValueError, match="word ids"):
        viterbi(table, np.array([n_states]), start, transitions(n_states, 1, HmmSettings()))
    with pytest.raises(ValueError, match="NaN"):
        viterbi(table * np.nan, spoken, start, transitions(n_states, 1, HmmSettings()))


def test_settings_refuse_probabilities_outside_the_open_interval():
    with pytest.raises(SettingsError, match="distance_decay"):
        HmmSettings(distance_decay=1.0).validate()
    with pytest.raises(SettingsError, match="min_share"):
        HmmSettings(min_share=1.5).validate()
