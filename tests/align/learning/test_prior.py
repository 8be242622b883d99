"""The shipped priors: cross-fitted like the shipped parameters, the word2vec one a calibration
only and the lexical one a whole decision, each applied only to pre-alignments whose evidence
it was fitted to read."""

import json

import numpy as np
import pytest

from workers.align.corpus import meeting_ids
from workers.align.folds import defaults_file, folds
from workers.align.learning.prior import (
    FOLDS,
    PRIOR_CORRECTIONS,
    PRIOR_VECTORS,
    load_prior,
    prior_file,
    prior_fold,
    prior_vectors,
)
from workers.align.learning.turn_decision import FEATURES, TurnEvidence
from workers.align.params import AlignmentParams, load_params


def test_a_corpus_meeting_gets_the_prior_fitted_on_the_other_fold():
    corpus = meeting_ids()
    fold_a, fold_b = folds(corpus)
    assert {prior_fold(meeting, corpus) for meeting in fold_a} == {"b"}
    assert {prior_fold(meeting, corpus) for meeting in fold_b} == {"a"}
    assert prior_fold(None, corpus) == "a"
    assert prior_fold("not-a-corpus-meeting", corpus) == "a"


@pytest.mark.parametrize("vectors", PRIOR_VECTORS)
def test_each_shipped_prior_was_fitted_on_its_fold_only(vectors):
    corpus = meeting_ids()
    for fitted_on, fold in zip(FOLDS, folds(corpus), strict=True):
        stored = json.loads(prior_file(fitted_on, vectors).read_text(encoding="utf-8"))
        assert stored["metadata"]["fitted_on"] == sorted(fold)
        assert stored["metadata"]["params"] == defaults_file(fitted_on, vectors=vectors).name
        assert stored["metadata"]["turns"] == "corrected"
        _, confidences = load_prior(fitted_on, vectors).decide(_evidence())
        assert np.all((confidences >= 0) & (confidences <= 1))
        assert 0.0 < load_prior(fitted_on, vectors).run_correlation < 1.0, "errors run together"


@pytest.mark.parametrize("vectors", sorted(set(PRIOR_VECTORS) - PRIOR_CORRECTIONS))
def test_a_prior_that_only_calibrates_changes_no_label(vectors):
    for fitted_on in FOLDS:
        prior = load_prior(fitted_on, vectors)
        assert prior.corrections is None
        evidence = _evidence()
        labels, _ = prior.decide(evidence)
        assert labels.tolist() == evidence.labels.tolist()


@pytest.mark.parametrize("vectors", sorted(PRIOR_CORRECTIONS))
def test_a_prior_that_corrects_kept_corrections_its_held_out_gold_got_more_turns_right_with(
    vectors,
):
    for fitted_on in FOLDS:
        summary = load_prior(fitted_on, vectors).summary()
        assert summary["corrections_kept"]
        held_out = summary["held_out"]
        threshold = summary["threshold"]
        assert held_out[f"learned_turn_hits_at_{threshold}"] > held_out["path_turn_hits"]
        assert held_out[f"learned_word_hits_at_{threshold}"] >= held_out["path_word_hits"]


def test_each_prior_applies_to_the_turn_path_scored_as_it_was_fitted():
    trained = load_params(defaults_file("a"))
    lexical = load_params(defaults_file("a", vectors="lexical"))
    assert prior_vectors(trained) == "word2vec"
    assert prior_vectors(AlignmentParams().with_changes({"aligner": "turns"})) == "word2vec"
    assert prior_vectors(lexical) == "lexical"
    assert prior_vectors(trained.with_changes({"vectors.kind": "lexical"})) == "lexical"
    assert prior_vectors(AlignmentParams.of("diagonal")) is None
    assert prior_vectors(trained.with_changes({"scoring.method": "tfidf"})) is None
    assert prior_vectors(lexical.with_changes({"aligner": "hmm"})) is None


def _evidence() -> TurnEvidence:
    """A document's evidence with made-up but well-formed features."""
    generator = np.random.default_rng(0)
    labels = np.array([0, 0, 1, -1, 1, 2, 2])
    turns = len(labels)
    return TurnEvidence(
        labels=labels,
        candidate=np.maximum(labels, 0),
        n_segments=3,
        features=generator.normal(size=(turns, len(FEATURES))),
        word_counts=np.full(turns, 10),
    )
