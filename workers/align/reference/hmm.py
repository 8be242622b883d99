"""Viterbi over the dense transition matrix, word by word and state by state in Python
floats: the O(T K^2) definition the engine's O(T K) decoder must equal."""

from __future__ import annotations

import math

import numpy as np

from workers.align.talks.hmm import Transitions


def naive_viterbi(
    table: np.ndarray, observations: list[int], log_start: np.ndarray, moves: Transitions
) -> tuple[list[int], float]:
    """Predecessor ties go to the state itself, then the nearest earlier state, then the
    nearest later one; the path ends in the earliest best state."""
    if not observations:
        return [], 0.0
    n_states = table.shape[1]
    if n_states == 0:
        return [-1] * len(observations), -math.inf
    logs = moves.dense()
    emissions = [[float(value) for value in row] for row in np.asarray(table, dtype=np.float32)]
    scores = [float(log_start[k]) + emissions[observations[0]][k] for k in range(n_states)]
    sources: list[list[int]] = [[0] * n_states]
    for word in observations[1:]:
        new_scores, new_sources = [], []
        for target in range(n_states):
            order = [target, *range(target - 1, -1, -1), *range(target + 1, n_states)]
            best, source = -math.inf, target
            for position, k in enumerate(order):
                candidate = scores[k] + float(logs[k, target])
                if position == 0 or candidate > best:
                    best, source = candidate, k
            new_scores.append(best + emissions[word][target])
            new_sources.append(source)
        scores = new_scores
        sources.append(new_sources)
    end = 0
    for k in range(1, n_states):
        if scores[k] > scores[end]:
            end = k
    path = [end]
    for step in range(len(observations) - 1, 0, -1):
        path.append(sources[step][path[-1]])
    return path[::-1], scores[end]
