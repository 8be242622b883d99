"""The HMM on words and turns: emissions against their definition, the turn vote, and the
aligner on real public_meetings through the same entry points as the others."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from tests.align.topic_vectors import topic_vectors
from workers.align.document_model import UNALIGNED
from workers.align.layout import sentence_layout
from workers.align.metrics import merge_subturns, score_meeting
from workers.align.params import AlignmentParams
from workers.align.pipeline import align_meeting, corpus_vectors, path_outcome
from workers.align.scoring.similarity import ScoringParams
from workers.align.talks.hmm import HmmSettings
from workers.align.talks.hmm_alignment import (
    TalkDecoding,
    best_in_sentences,
    decode_talk,
    emissions,
    turn_vote,
)
from workers.align.talks.importance import importance
from workers.align.tuning.tune import evaluate_grid_slice


@settings(max_examples=200, deadline=None)
@given(
    arrays(
        np.float32,
        st.tuples(st.integers(1, 4), st.integers(1, 6)),
        elements=st.floats(-1, 1, width=32),
    ),
    st.lists(st.lists(st.integers(0, 5), max_size=4), max_size=5),
)
def test_sentence_maxima_kernel_equals_its_definition(similarity, sentences):
    sentences = [[i % similarity.shape[0] for i in ids] for ids in sentences]
    indptr = np.cumsum([0] + [len(ids) for ids in sentences]).astype(np.int64)
    indices = np.array([i for ids in sentences for i in ids], dtype=np.int64)
    best = np.full((len(sentences), similarity.shape[1]), np.float32(-2.0))
    best_in_sentences(similarity, indptr, indices, best)
    for state, ids in enumerate(sentences):
        for word in range(similarity.shape[1]):
            expected = max([-2.0, *(float(similarity[i, word]) for i in ids)])
            assert best[state, word] == np.float32(expected)


def test_emissions_are_best_word_similarities_normalised_over_the_spoken_vocabulary():
    vectors = topic_vectors()
    spoken = ["library", "budget", "parking", "zebra"]
    states = [["roof", "leaks"], ["drivers", "scarce"], [], ["zebra", "parking"]]
    hmm = HmmSettings(similarity_floor=0.05)
    table = emissions(spoken, states, vectors, hmm)

    def similarity(a: str, b: str) -> float:
        if a == b:
            return 1.0
        if a not in vectors or b not in vectors:
            return 0.0
        return float(vectors.similarity(a, b))

    raw = np.array(
        [[max([0.05, *(similarity(w, v) for v in state)]) for state in states] for w in spoken]
    )
    expected = np.log(raw) - np.log(raw.sum(axis=0))
    np.testing.assert_allclose(table.table, expected, rtol=1e-5, atol=1e-6)
    words, states_index = np.array([0, 2, 3]), np.array([0, 1, 3])
    np.testing.assert_allclose(
        table.similarity(words, states_index), raw[words, states_index], rtol=1e-5
    )
    unnormalised = emissions(spoken, states, None, HmmSettings(normalise_emissions=False))
    assert unnormalised.table[3, 3] == 0.0
    assert unnormalised.table[2, 3] == 0.0
    assert unnormalised.table[0, 0] == pytest.approx(np.log(0.01))


def test_turn_vote_takes_the_majority_segment_ties_earlier_and_abstains_below_the_share():
    decoding = TalkDecoding(
        word_turn=np.array([0, 0, 0, 1, 1, 3]),
        word_state=np.array([0, 2, 2, 1, 3, 3]),
        word_similarity=np.array([0.2, 0.8, 0.6, 0.5, 0.1, 1.0]),
        log_probability=0.0,
    )
    segment_of_state = np.array([0, 0, 1, 2])
    vote = turn_vote(decoding, segment_of_state, n_turns=4, n_segments=3, min_share=0.0)
    assert vote.labels.tolist() == [1, 0, 0, 2]
    assert vote.share.tolist() == pytest.approx([2 / 3, 0.5, 1.0, 1.0])
    assert vote.support[0] == pytest.approx(0.7)
    strict = turn_vote(decoding, segment_of_state, n_turns=4, n_segments=3, min_share=0.6)
    assert strict.labels.tolist() == [1, UNALIGNED, UNALIGNED, 2]


def test_a_talk_that_follows_its_paper_is_decoded_in_order():
    vectors = topic_vectors()
    paper = [["library", "budget"], ["parking", "downtown"], ["meters", "vote"]]
    turns = [["library", "roof", "leaks", "books"], ["drivers", "parking", "space"], ["vote"]]
    plain = HmmSettings(normalise_emissions=False)
    decoding = decode_talk(turns, paper, np.array([True, False, False]), vectors, plain)
    assert decoding.word_state.tolist() == [0, 0, 0, 0, 1, 1, 1, 2]
    assert importance(decoding.word_state, 3).tolist() == [4, 3, 1]


@pytest.fixture(scope="module")
def small_meetings():
    from workers.align.corpus import load_public_meetings

    return load_public_meetings(["686239", "2f3f95", "0b9ec6"])


def scored(meeting, labels):
    turns = meeting.transcript.turns
    return score_meeting(
        *merge_subturns(
            [t.id for t in turns],
            meeting.reference,
            labels,
            sentence_layout(meeting).turn_word_counts,
        )
    )


def test_hmm_aligns_real_meetings_better_than_the_diagonal_and_tunes_like_the_others(
    small_meetings,
):
    hmm = AlignmentParams.of("hmm").with_changes(
        {"scoring.centre": True, "hmm.normalise_emissions": False}
    )
    vectors = corpus_vectors(small_meetings, hmm.vectors)
    scores = {}
    for name, params in {"hmm": hmm, "diagonal": AlignmentParams.of("diagonal")}.items():
        scores[name] = sum(
            scored(meeting, align_meeting(meeting, params, vectors).labels).word_hits
            for meeting in small_meetings
        )
    assert scores["hmm"] > scores["diagonal"]

    strict = hmm.with_changes({"hmm.min_share": 0.9})
    rouge = hmm.with_changes({"scoring.method": "rouge", "hmm.min_share": 0.9})
    results = evaluate_grid_slice(small_meetings, [hmm, strict, rouge], vectors)
    assert sum(s.word_hits for _, s in results[0].per_meeting) == scores["hmm"]
    for meeting, (_, tuned) in zip(small_meetings, results[1].per_meeting, strict=True):
        assert tuned == scored(meeting, align_meeting(meeting, strict, vectors).labels)
    assert sum(s.unaligned_predicted for _, s in results[2].per_meeting) > 0
    with pytest.raises(ValueError, match="reads words"):
        path_outcome(np.zeros((0, 0)), sentence_layout(small_meetings[0]), hmm)
    with pytest.raises(ValueError, match="needs word vectors"):
        align_meeting(small_meetings[0], hmm, None)
    exact = AlignmentParams(path=HmmSettings(), scoring=ScoringParams(method="tfidf"))
    assert len(align_meeting(small_meetings[0], exact).labels) == len(
        small_meetings[0].transcript.turns
    )
