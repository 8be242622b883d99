"""The HMM applied to a transcript and a report: emissions from word similarities, Viterbi, and
each turn's segment by a vote of its words.

Emission p(y | k) is proportional to the best similarity between the spoken word y and any
word of sentence k (TalkSumm, after Malmaud et al.). Only unique words matter, so the
similarities are a (spoken vocabulary x paper vocabulary) table, computed a block of spoken
words at a time and reduced to (spoken vocabulary x sentences) once; the decoder then reads a
row per spoken word instead of recomputing anything per time step. Proportional is made exact by
dividing each sentence's column by its sum over the spoken vocabulary (`normalise_emissions`):
a sentence of common words that resembles every spoken word then gains nothing from that.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numba
import numpy as np
from gensim.models import KeyedVectors

from workers.align.document_model import UNALIGNED
from workers.align.paths.assign import NOT_VISITED, fill_unvisited
from workers.align.scoring.pooling import unit_rows
from workers.align.scoring.tokens import lexical_tokens
from workers.align.scoring.vectors import lookup_table
from workers.align.talks.hmm import HmmSettings, transitions, uniform_start, viterbi

BLOCK_CELLS = 1 << 23
"""Similarities held at once while the table is built (32 MB of float32)."""
BLOCK_WORDS = 512
"""Spoken words per block: a sentence word's row of similarities (2 KB) stays in cache."""


@dataclass(frozen=True)
class Emissions:
    """log p(word | state) for the talk's vocabulary (float32, words x states), and each
    state's log normaliser, which turns a log emission back into the similarity it came from."""

    table: np.ndarray
    log_normaliser: np.ndarray

    def similarity(self, words: np.ndarray, states: np.ndarray) -> np.ndarray:
        return np.exp(self.table[words, states] + self.log_normaliser[states])


def emissions(
    spoken_vocabulary: Sequence[str],
    state_words: Sequence[Sequence[str]],
    vectors: KeyedVectors | None,
    settings: HmmSettings,
    centre: bool = False,
) -> Emissions:
    """Cosine of word vectors when `vectors` are given; identical words are 1 either way and
    every similarity is at least `similarity_floor`.

    `centre` removes the mean of the talk's and paper's unit word vectors before the cosine,
    as the sentence scorers' `scoring.centre` does: vectors trained on little text share a
    large common direction, every pair of words then looks alike, and the emissions stop
    telling sentences apart."""
    spoken_ids = {word: index for index, word in enumerate(spoken_vocabulary)}
    paper_ids: dict[str, int] = {}
    sentences = [
        sorted({paper_ids.setdefault(word, len(paper_ids)) for word in words})
        for words in state_words
    ]
    paper_vocabulary = list(paper_ids)
    same_word = np.array([spoken_ids.get(word, -1) for word in paper_vocabulary], dtype=np.int64)
    spoken_unit = paper_unit = None
    if vectors is not None:
        spoken_unit = _unit_vectors(vectors, spoken_vocabulary)
        paper_unit = _unit_vectors(vectors, paper_vocabulary)
        if centre:
            known = np.concatenate([spoken_unit, paper_unit])
            common = known[np.linalg.norm(known, axis=1) > 0].mean(axis=0)
            spoken_unit = _centred(spoken_unit, common)
            paper_unit = _centred(paper_unit, common)
    n_words, n_states = len(spoken_vocabulary), len(sentences)
    floor = np.float32(settings.similarity_floor)
    best = np.full((n_words, n_states), floor, dtype=np.float32)
    indptr = np.concatenate(([0], np.cumsum([len(ids) for ids in sentences]))).astype(np.int64)
    indices = np.array([i for ids in sentences for i in ids], dtype=np.int64)
    block = max(1, min(BLOCK_WORDS, BLOCK_CELLS // max(len(paper_vocabulary), 1)))
    for start in range(0, n_words if len(indices) else 0, block):
        stop = min(start + block, n_words)
        if spoken_unit is not None and paper_unit is not None:
            similarity = paper_unit @ spoken_unit[start:stop].T
        else:
            similarity = np.zeros((len(paper_vocabulary), stop - start), dtype=np.float32)
        here = np.flatnonzero((same_word >= start) & (same_word < stop))
        similarity[here, same_word[here] - start] = 1.0
        best_of_block = np.full((n_states, stop - start), floor, dtype=np.float32)
        best_in_sentences(similarity, indptr, indices, best_of_block)
        best[start:stop] = best_of_block.T
    if settings.normalise_emissions and n_words:
        log_normaliser = np.log(best.sum(axis=0, dtype=np.float64))
    else:
        log_normaliser = np.zeros(n_states)
    table = np.log(best, out=best)
    table -= log_normaliser.astype(np.float32)
    return Emissions(table, log_normaliser)


@numba.njit(cache=True, nogil=True)
def best_in_sentences(
    similarity: np.ndarray,
    indptr: np.ndarray,
    indices: np.ndarray,
    best: np.ndarray,
) -> None:  # pragma: no cover
    """best[k, u] = max(best[k, u], similarity[w, u] for the words w of sentence k), for the
    (paper words, spoken words) similarity of a block of spoken words and the sentences as
    CSR (indptr, indices): each sentence word's similarities are one contiguous row, so the
    maximum runs over the block's spoken words at once."""
    for state in range(len(indptr) - 1):
        target = best[state]
        for position in range(indptr[state], indptr[state + 1]):
            source = similarity[indices[position]]
            for word in range(source.shape[0]):
                if source[word] > target[word]:
                    target[word] = source[word]


def _centred(unit: np.ndarray, common: np.ndarray) -> np.ndarray:
    """Unit rows less the common direction; words without a vector stay zero."""
    has_vector = np.linalg.norm(unit, axis=1, keepdims=True) > 0
    return unit_rows(np.where(has_vector, unit - common, 0.0))


def _unit_vectors(vectors: KeyedVectors, words: Sequence[str]) -> np.ndarray:
    table, _ = lookup_table(vectors, {word: index for index, word in enumerate(words)})
    return unit_rows(table)


@dataclass(frozen=True)
class TalkDecoding:
    """Per spoken word (in order): its turn, its state, and its similarity to that state."""

    word_turn: np.ndarray
    word_state: np.ndarray
    word_similarity: np.ndarray
    log_probability: float


def spoken_words(turns: Sequence[Sequence[str]]) -> list[list[str]]:
    """Each turn's words as the scorers see them, from its sentences."""
    return [[word for sentence in turn for word in lexical_tokens(sentence)] for turn in turns]


def decode_talk(
    turn_words: Sequence[Sequence[str]],
    state_words: Sequence[Sequence[str]],
    start_states: np.ndarray,
    vectors: KeyedVectors | None,
    settings: HmmSettings,
    centre: bool = False,
) -> TalkDecoding:
    """Viterbi over every spoken word of the transcript against the given states, starting
    uniformly among `start_states` (all states when it marks none)."""
    vocabulary: dict[str, int] = {}
    word_ids = [
        vocabulary.setdefault(word, len(vocabulary)) for words in turn_words for word in words
    ]
    word_turn = np.repeat(np.arange(len(turn_words)), [len(words) for words in turn_words])
    table = emissions(list(vocabulary), state_words, vectors, settings, centre)
    observations = np.array(word_ids, dtype=np.int64)
    decoded = viterbi(
        table.table,
        observations,
        uniform_start(start_states),
        transitions(len(state_words), len(observations), settings),
    )
    states = decoded.states
    similarity = np.zeros(len(states))
    if len(state_words):
        similarity = table.similarity(observations, states)
    return TalkDecoding(word_turn, states, similarity, decoded.log_probability)


@dataclass(frozen=True)
class TurnVote:
    """Per turn: the segment holding most of its words' states (UNALIGNED below the share
    threshold), that share, and the mean similarity of its words to their states there."""

    labels: np.ndarray
    share: np.ndarray
    support: np.ndarray


def turn_vote(
    decoding: TalkDecoding,
    segment_of_state: np.ndarray,
    n_turns: int,
    n_segments: int,
    min_share: float,
) -> TurnVote:
    """Ties go to the earlier segment; a turn without words takes its neighbours' label."""
    labels = np.full(n_turns, NOT_VISITED, dtype=np.int64)
    share = np.ones(n_turns)
    support = np.full(n_turns, np.nan)
    word_segment = np.asarray(segment_of_state)[decoding.word_state]
    bounds = np.searchsorted(decoding.word_turn, np.arange(n_turns + 1))
    for turn in range(n_turns):
        segments = word_segment[bounds[turn] : bounds[turn + 1]]
        if len(segments) == 0 or n_segments == 0:
            continue
        votes = np.bincount(segments, minlength=n_segments)
        chosen = int(np.argmax(votes))
        share[turn] = votes[chosen] / len(segments)
        inside = segments == chosen
        support[turn] = decoding.word_similarity[bounds[turn] : bounds[turn + 1]][inside].mean()
        labels[turn] = chosen if share[turn] >= min_share else UNALIGNED
    return TurnVote(fill_unvisited(labels), share, support)
