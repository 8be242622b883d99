"""TalkSumm's hidden Markov model: which report sentence each spoken word is describing.

Hidden states are the report's (paper's) sentences, observations the spoken words, one a time
step. The transitions encode three beliefs about a speaker (Lev et al., 2019): staying on a
sentence is likely, near sentences are likelier than far ones, and going forward is likelier
than going back:

    T(k, k)     = alpha = max(delta * (1 - K / T), epsilon)
    T(k, k + j) = beta_k * lambda ** (j - 1)           (j >= 1)
    T(k, k - j) = gamma * beta_k * lambda ** (j - 1)   (j >= 1)

with beta_k making row k sum to 1 (K states, T words; a single state stays with probability 1).

A dense K x K matrix makes Viterbi O(T K^2): for the largest public_meetings report (4,445
sentences against 61,918 spoken words) that is 1.2e12 steps. The geometric shape makes it
O(T K):
the best forward arrival at state l is max over k < l of launch[k] + (l - k - 1) log lambda,
and the ordering of two candidates k < k' does not change with l (both lose log lambda per
step), so one running best, challenged by each new state in turn, is the best of all of them;
the same holds backwards. The kernel keeps that running best's index rather than a decayed
value, so each candidate's score is the same sum the dense definition adds
(`workers/align/reference/hmm.py`) and the two decoders compare the same floats. They could part
only where two earlier moves score within rounding of each other and rounding swaps their
order a state later; both paths are then optimal to within that rounding.

Ties: a state's predecessor is itself before any other, then the nearest earlier state, then
the nearest later one; the path ends in the earliest state reaching the maximum.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba
import numpy as np

from workers.align.setting_fields import SettingsError, setting

STAY = np.uint8(0)
FORWARD = np.uint8(1)
BACKWARD = np.uint8(2)
SOURCE_BITS = np.uint8(3)
FORWARD_RECORD = np.uint8(4)
"""Step bit of (t, k): state k became the best forward launch at step t, so it is the source
of every forward arrival at t up to the next such state."""
BACKWARD_RECORD = np.uint8(8)


@dataclass(frozen=True)
class HmmSettings:
    """TalkSumm's HMM: each spoken word is emitted by one report sentence; Viterbi finds the
    sentences, and a turn goes to the segment holding most of its words."""

    stay_scale: float = setting(0.33, "delta: the stay probability is delta * (1 - K / T) ...")
    stay_floor: float = setting(0.1, "epsilon: ... but at least epsilon")
    distance_decay: float = setting(
        0.75, "lambda: each further sentence a move skips multiplies its probability by lambda"
    )
    backward_factor: float = setting(0.5, "gamma: a move back costs gamma times a move forward")
    similarity_floor: float = setting(
        0.01, "word similarities below this count as this (unrelated words still emit)"
    )
    normalise_emissions: bool = setting(
        True, "divide a sentence's emissions by their sum over the spoken vocabulary"
    )
    min_share: float = setting(
        0.0, "a turn whose most common segment holds a smaller share of its words is unaligned"
    )

    def validate(self) -> None:
        for name in ("stay_scale", "stay_floor", "distance_decay", "backward_factor"):
            value = getattr(self, name)
            if not 0.0 < value < 1.0:
                raise SettingsError(f"hmm.{name} must be between 0 and 1 (exclusive), got {value}.")
        if not 0.0 < self.similarity_floor <= 1.0:
            raise SettingsError(
                f"hmm.similarity_floor must be in (0, 1], got {self.similarity_floor}."
            )
        if not 0.0 <= self.min_share <= 1.0:
            raise SettingsError(f"hmm.min_share must be in [0, 1], got {self.min_share}.")


@dataclass(frozen=True)
class Transitions:
    """The transition matrix in the form the decoder reads: log T(k, k) = stay,
    log T(k, k + j) = forward[k] + (j - 1) decay, log T(k, k - j) = backward[k] + (j - 1) decay."""

    stay: float
    forward: np.ndarray
    backward: np.ndarray
    decay: float

    def dense(self) -> np.ndarray:
        """The (K, K) log matrix, each entry the same sum the decoder adds."""
        n_states = len(self.forward)
        logs = np.full((n_states, n_states), self.stay)
        for k in range(n_states):
            for target in range(n_states):
                if target > k:
                    logs[k, target] = self.forward[k] + (target - k - 1) * self.decay
                elif target < k:
                    logs[k, target] = self.backward[k] + (k - target - 1) * self.decay
        return logs


def stay_probability(n_states: int, n_words: int, settings: HmmSettings) -> float:
    """alpha: a talk with many words per sentence stays longer on each."""
    if n_states <= 1:
        return 1.0
    if n_words == 0:
        return settings.stay_floor
    return max(settings.stay_scale * (1.0 - n_states / n_words), settings.stay_floor)


def transitions(n_states: int, n_words: int, settings: HmmSettings) -> Transitions:
    alpha = stay_probability(n_states, n_words, settings)
    decay = settings.distance_decay
    states = np.arange(n_states, dtype=np.float64)
    ahead = n_states - 1 - states
    forward_mass = (1.0 - decay**ahead) / (1.0 - decay)
    backward_mass = settings.backward_factor * (1.0 - decay**states) / (1.0 - decay)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_beta = np.log1p(-alpha) - np.log(forward_mass + backward_mass)
    log_beta = np.where(forward_mass + backward_mass > 0, log_beta, -np.inf)
    return Transitions(
        stay=math.log(alpha),
        forward=np.ascontiguousarray(log_beta),
        backward=np.ascontiguousarray(log_beta + math.log(settings.backward_factor)),
        decay=math.log(decay),
    )


@numba.njit(cache=True, nogil=True)
def _viterbi_kernel(
    table: np.ndarray,
    observations: np.ndarray,
    log_start: np.ndarray,
    stay: float,
    forward: np.ndarray,
    backward: np.ndarray,
    decay: float,
    steps: np.ndarray,
    path: np.ndarray,
) -> float:  # pragma: no cover
    """Fills steps (T, K) uint8 and path (T,) and returns the best log probability.

    table (U, K) float32 holds log p(word u | state k); observations (T,) are word ids.
    """
    n_words = observations.shape[0]
    n_states = table.shape[1]
    previous = np.empty(n_states, dtype=np.float64)
    current = np.empty(n_states, dtype=np.float64)
    arrival_forward = np.empty(n_states, dtype=np.float64)
    arrival_backward = np.empty(n_states, dtype=np.float64)
    first = observations[0]
    for state in range(n_states):
        previous[state] = log_start[state] + table[first, state]
    for t in range(1, n_words):
        row = table[observations[t]]
        best = -1
        arrival_forward[0] = -np.inf
        for state in range(1, n_states):
            challenger = previous[state - 1] + forward[state - 1]
            held = -np.inf
            if best >= 0:
                held = previous[best] + (forward[best] + (state - best - 1) * decay)
            if best < 0 or challenger >= held:
                best = state - 1
                steps[t, best] |= FORWARD_RECORD
                held = challenger
            arrival_forward[state] = held
        best = -1
        arrival_backward[n_states - 1] = -np.inf
        for state in range(n_states - 2, -1, -1):
            challenger = previous[state + 1] + backward[state + 1]
            held = -np.inf
            if best >= 0:
                held = previous[best] + (backward[best] + (best - state - 1) * decay)
            if best < 0 or challenger >= held:
                best = state + 1
                steps[t, best] |= BACKWARD_RECORD
                held = challenger
            arrival_backward[state] = held
        for state in range(n_states):
            score = previous[state] + stay
            source = STAY
            if arrival_forward[state] > score:
                score = arrival_forward[state]
                source = FORWARD
            if arrival_backward[state] > score:
                score = arrival_backward[state]
                source = BACKWARD
            steps[t, state] |= source
            current[state] = score + row[state]
        previous, current = current, previous
    end = 0
    for state in range(1, n_states):
        if previous[state] > previous[end]:
            end = state
    best_score = previous[end]
    state = end
    for t in range(n_words - 1, -1, -1):
        path[t] = state
        if t == 0:
            break
        source = steps[t, state] & SOURCE_BITS
        if source == FORWARD:
            state -= 1
            while not steps[t, state] & FORWARD_RECORD:
                state -= 1
        elif source == BACKWARD:
            state += 1
            while not steps[t, state] & BACKWARD_RECORD:
                state += 1
    return best_score


@dataclass(frozen=True)
class Decoding:
    """The most probable state per word and its log probability (-inf when no sequence of
    states can emit the words; then the path is the tie rules' and means nothing)."""

    states: np.ndarray
    log_probability: float


def viterbi(
    table: np.ndarray,
    observations: np.ndarray,
    log_start: np.ndarray,
    moves: Transitions,
) -> Decoding:
    """Most probable states for `observations` (word ids into the rows of `table`, the
    (words, states) log emissions), in O(words x states) time and one byte per pair."""
    table = np.ascontiguousarray(table, dtype=np.float32)
    observations = np.ascontiguousarray(observations, dtype=np.int64)
    log_start = np.ascontiguousarray(log_start, dtype=np.float64)
    n_states = table.shape[1]
    if table.ndim != 2 or log_start.shape != (n_states,) or moves.forward.shape != (n_states,):
        raise ValueError(
            f"emissions {table.shape}, start {log_start.shape} and transitions "
            f"{moves.forward.shape} disagree on the number of states"
        )
    if np.isnan(table).any() or np.isnan(log_start).any():
        raise ValueError("log probabilities contain NaN")
    if len(observations) and (observations.min() < 0 or observations.max() >= table.shape[0]):
        raise ValueError(f"word ids must lie in 0..{table.shape[0] - 1}")
    if len(observations) == 0:
        return Decoding(np.zeros(0, dtype=np.int64), 0.0)
    if n_states == 0:
        return Decoding(np.full(len(observations), -1, dtype=np.int64), -math.inf)
    steps = np.zeros((len(observations), n_states), dtype=np.uint8)
    path = np.empty(len(observations), dtype=np.int64)
    score = _viterbi_kernel(
        table,
        observations,
        log_start,
        moves.stay,
        moves.forward,
        moves.backward,
        moves.decay,
        steps,
        path,
    )
    return Decoding(path, float(score))


def uniform_start(allowed: np.ndarray) -> np.ndarray:
    """log p(S(1)): uniform over the allowed states (the paper's Introduction), or over all
    states when none is allowed."""
    allowed = np.asarray(allowed, dtype=bool)
    if not allowed.any():
        allowed = np.ones_like(allowed)
    start = np.full(len(allowed), -np.inf)
    if len(allowed) == 0:
        return start
    start[allowed] = -math.log(int(allowed.sum()))
    return start
