"""The learned decision and calibrated confidence: the keep-or-refuse gate, cross-fitting,
JSON round trip, and the path's evidence on a real meeting (the statistics it is built from
are tested in test_statistics.py)."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workers.align import pipeline
from workers.align.corpus import load_public_meetings
from workers.align.document_model import UNALIGNED
from workers.align.folds import defaults_file
from workers.align.learning.statistics import (
    auroc,
    fit_isotonic,
    fit_softmax,
)
from workers.align.learning.turn_decision import (
    AUROC_FLOOR,
    CORRECTION_THRESHOLDS,
    FEATURES,
    KEEP,
    MIN_GOLD_DOCUMENTS,
    N_CORRECTIONS,
    RIDGE,
    SECOND_OPINIONS,
    TO_CANDIDATE,
    TO_NEXT,
    TO_PREVIOUS,
    TO_UNALIGNED,
    LearnedDecision,
    OpinionScore,
    TurnEvidence,
    apply_corrections,
    correction_targets,
    cross_fitted,
    fit_decision,
    held_out_auroc,
    in_report_order,
    too_little_gold,
    weak_ranking,
)
from workers.align.params import load_params
from workers.align.pipeline import align_meeting, corpus_vectors, turn_evidence
from workers.align.report_order import keeps_report_order


def synthetic_document(
    rng: np.random.Generator,
    n_turns: int,
    informative: bool,
    noise: float = 0.3,
    run_length: int = 1,
):
    """A path that is right on most turns; its errors are reference turns left unaligned, in
    runs of `run_length` turns. With `informative`, one feature says which turns those are;
    otherwise every feature is noise."""
    n_segments = 12
    labels = np.sort(rng.integers(0, n_segments, n_turns))
    reference = labels.copy()
    errors = np.repeat(rng.random(-(-n_turns // run_length)) < 0.2, run_length)[:n_turns]
    reference[errors] = UNALIGNED
    features = rng.normal(size=(n_turns, len(FEATURES)))
    if informative:
        features[:, 0] = np.where(errors, -2.0, 2.0) + noise * rng.normal(size=n_turns)
    evidence = TurnEvidence(
        labels=labels,
        candidate=labels,
        n_segments=n_segments,
        features=features,
        word_counts=rng.integers(1, 50, n_turns),
    )
    return evidence, reference


def test_corrections_refused_when_they_do_not_beat_the_path():
    rng = np.random.default_rng(0)
    documents = [synthetic_document(rng, 150, informative=False) for _ in range(6)]
    model = fit_decision(documents)
    assert model.corrections is None
    for threshold in CORRECTION_THRESHOLDS:
        turns = model.held_out[f"learned_turn_hits_at_{threshold:g}"]
        words = model.held_out[f"learned_word_hits_at_{threshold:g}"]
        assert turns <= model.held_out["path_turn_hits"] or words < model.held_out["path_word_hits"]
    evidence, _ = documents[0]
    labels, _ = model.decide(evidence)
    np.testing.assert_array_equal(labels, evidence.labels)


def test_corrections_kept_when_they_beat_the_path_on_held_out_gold():
    rng = np.random.default_rng(1)
    documents = [synthetic_document(rng, 150, informative=True) for _ in range(6)]
    model = fit_decision(documents)
    assert model.corrections is not None
    assert model.threshold in CORRECTION_THRESHOLDS
    chosen = model.held_out[f"learned_turn_hits_at_{model.threshold:g}"]
    assert chosen > model.held_out["path_turn_hits"]
    evidence, reference = synthetic_document(rng, 300, informative=True)
    labels, confidence = model.decide(evidence)
    assert np.mean(labels == reference) > np.mean(evidence.labels == reference) + 0.1
    assert np.all((confidence >= 0) & (confidence <= 1))


def test_each_document_is_decided_by_a_model_that_never_saw_its_gold():
    rng = np.random.default_rng(2)
    documents = {f"d{i}": synthetic_document(rng, 120, True, noise=2.0) for i in range(6)}
    fold_one, fold_two = ["d0", "d1", "d2"], ["d3", "d4", "d5"]
    folds = [
        ({i: documents[i][0] for i in tested}, [documents[i] for i in trained])
        for tested, trained in ((fold_one, fold_two), (fold_two, fold_one))
    ]
    decided, models = cross_fitted(folds)
    assert sorted(decided) == sorted(documents)
    for tested, model in zip((fold_one, fold_two), models, strict=True):
        for document_id in tested:
            labels, confidence = model.decide(documents[document_id][0])
            np.testing.assert_array_equal(decided[document_id][0], labels)
            np.testing.assert_array_equal(decided[document_id][1], confidence)
    # A map that saw d0's gold gives d0 another confidence: the check above can fail.
    seen = fit_decision([documents[i] for i in [*fold_two, "d0"]])
    assert not np.array_equal(seen.decide(documents["d0"][0])[1], decided["d0"][1])


def test_calibrated_confidence_is_monotone_in_the_correctness_score():
    rng = np.random.default_rng(3)
    model = fit_decision([synthetic_document(rng, 150, informative=True) for _ in range(4)])
    assert np.all(np.diff(model.calibration.values) > 0)
    assert np.all(np.diff(model.calibration.thresholds) > 0)
    assert np.all(np.diff(model.calibration.centres) > 0)
    assert model.calibration.interpolate


def test_decision_round_trips_through_json():
    rng = np.random.default_rng(4)
    model = fit_decision([synthetic_document(rng, 150, informative=True) for _ in range(4)])
    again = LearnedDecision.from_dict(json.loads(json.dumps(model.as_dict())))
    evidence, _ = synthetic_document(rng, 80, informative=True)
    for ours, theirs in zip(model.decide(evidence), again.decide(evidence), strict=True):
        np.testing.assert_array_equal(ours, theirs)
    assert again.run_correlation == model.run_correlation
    before_runs = {k: v for k, v in model.as_dict().items() if k != "run_correlation"}
    assert LearnedDecision.from_dict(before_runs).run_correlation == 0.0
    stale = {**model.as_dict(), "features": ["something", "else"]}
    with pytest.raises(ValueError, match="other features"):
        LearnedDecision.from_dict(stale)


def test_the_decision_measures_how_the_errors_of_its_gold_run_together():
    rng = np.random.default_rng(5)
    scattered = [synthetic_document(rng, 200, informative=True, noise=2.0) for _ in range(5)]
    in_runs = [
        synthetic_document(rng, 200, informative=True, noise=2.0, run_length=10) for _ in range(5)
    ]
    assert fit_decision(scattered).run_correlation < 0.15
    assert fit_decision(in_runs).run_correlation > 0.3


def test_targets_name_the_correction_that_reaches_the_reference():
    evidence = TurnEvidence(
        labels=np.array([0, 1, 1, UNALIGNED, 3]),
        candidate=np.array([0, 1, 1, 2, 3]),
        n_segments=4,
        features=np.zeros((5, len(FEATURES))),
        word_counts=np.ones(5, dtype=np.int64),
    )
    reference = np.array([0, UNALIGNED, 2, 2, 3])
    targets = correction_targets(evidence, reference)
    np.testing.assert_array_equal(targets, [KEEP, TO_UNALIGNED, TO_NEXT, TO_CANDIDATE, KEEP])
    np.testing.assert_array_equal(apply_corrections(evidence, targets), reference)


def naive_in_report_order(evidence, probabilities, chosen):
    """The definition: likeliest first, a correction stays if the whole document's labels,
    with it and the corrections kept before it, still keep the report's order."""
    labels, kept = evidence.labels.copy(), np.full(len(chosen), KEEP)
    proposed = apply_corrections(evidence, chosen)
    likeliest_first = sorted(
        (turn for turn in range(len(chosen)) if chosen[turn] != KEEP),
        key=lambda turn: -probabilities[turn, chosen[turn]],
    )
    for turn in likeliest_first:
        trial = labels.copy()
        trial[turn] = proposed[turn]
        if keeps_report_order(trial):
            labels, kept[turn] = trial, chosen[turn]
    return kept


def test_a_correction_that_would_break_the_report_order_is_not_applied():
    labels = np.array([0, 1, 1, 2, 2, 3])
    evidence = TurnEvidence(
        labels=labels,
        candidate=labels,
        n_segments=4,
        features=np.zeros((6, len(FEATURES))),
        word_counts=np.ones(6, dtype=np.int64),
    )
    chosen = np.array([TO_NEXT, KEEP, TO_NEXT, TO_PREVIOUS, TO_UNALIGNED, TO_PREVIOUS])
    probabilities = np.full((6, N_CORRECTIONS), 0.05)
    for turn, likelihood in zip(range(6), [0.95, 0.0, 0.9, 0.7, 0.6, 0.8], strict=True):
        probabilities[turn, chosen[turn]] = likelihood

    kept = in_report_order(evidence, probabilities, chosen)

    # Turn 3 alone could go back to segment 1, but the likelier correction of turn 2 took
    # turn 2 to segment 2 before it.
    np.testing.assert_array_equal(kept, [TO_NEXT, KEEP, TO_NEXT, KEEP, TO_UNALIGNED, TO_PREVIOUS])
    np.testing.assert_array_equal(apply_corrections(evidence, kept), [1, 1, 2, 2, UNALIGNED, 2])
    alone = np.where(np.arange(6) == 3, chosen, KEEP)
    np.testing.assert_array_equal(in_report_order(evidence, probabilities, alone), alone)


def test_on_labels_already_out_of_order_only_a_correction_that_mends_them_is_applied():
    # Turn 0 comes after turns 1-2 in the report: the whole document is out of order, and
    # the server would refuse it until that is mended, whatever else changes.
    labels = np.array([1, 0, 0])
    evidence = TurnEvidence(
        labels=labels,
        candidate=labels,
        n_segments=3,
        features=np.zeros((3, len(FEATURES))),
        word_counts=np.ones(3, dtype=np.int64),
    )
    probabilities = np.full((3, N_CORRECTIONS), 0.5)

    leaves_it_out_of_order = np.array([KEEP, KEEP, TO_NEXT])
    np.testing.assert_array_equal(
        in_report_order(evidence, probabilities, leaves_it_out_of_order), [KEEP, KEEP, KEEP]
    )
    mends_it = np.array([TO_PREVIOUS, KEEP, KEEP])
    np.testing.assert_array_equal(in_report_order(evidence, probabilities, mends_it), mends_it)


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_report_order_equals_its_naive_definition(seed):
    rng = np.random.default_rng(seed)
    n_turns, n_segments = int(rng.integers(1, 30)), int(rng.integers(1, 8))
    labels = np.sort(rng.integers(0, n_segments, n_turns))
    labels[rng.random(n_turns) < 0.3] = UNALIGNED
    candidate = labels.copy()
    for turn in np.flatnonzero(labels == UNALIGNED):
        candidate[turn] = rng.integers(-1, n_segments)
    evidence = TurnEvidence(
        labels=labels,
        candidate=candidate,
        n_segments=n_segments,
        features=np.zeros((n_turns, len(FEATURES))),
        word_counts=np.ones(n_turns, dtype=np.int64),
    )
    chosen = rng.integers(0, N_CORRECTIONS, n_turns)
    probabilities = rng.random((n_turns, N_CORRECTIONS))

    kept = in_report_order(evidence, probabilities, chosen)

    np.testing.assert_array_equal(kept, naive_in_report_order(evidence, probabilities, chosen))
    assert np.all((kept == KEEP) | (kept == chosen))
    assert keeps_report_order(apply_corrections(evidence, kept))


@pytest.fixture(scope="module")
def two_meetings():
    meetings = load_public_meetings()[:2]
    params = load_params(defaults_file("a"))
    return meetings, params, corpus_vectors(meetings, params.vectors)


def test_path_evidence_keeps_the_engines_labels_and_confidence(two_meetings):
    meetings, params, vectors = two_meetings
    for meeting in meetings:
        result, evidence = turn_evidence(meeting, params, vectors)
        aligned = align_meeting(meeting, params, vectors)
        np.testing.assert_array_equal(result.labels, aligned.labels)
        np.testing.assert_array_equal(result.confidence, aligned.confidence)
        assert evidence.features.shape == (len(meeting.transcript.turns), len(FEATURES))
        assert np.isfinite(evidence.features).all()
        unaligned = evidence.labels == UNALIGNED
        assert np.all(evidence.candidate[~unaligned] == evidence.labels[~unaligned])


def test_a_decision_fitted_on_one_meeting_decides_another(two_meetings):
    meetings, params, vectors = two_meetings
    (_, train), (_, test) = (turn_evidence(m, params, vectors) for m in meetings)
    model = fit_decision([(train, np.asarray(meetings[0].reference))])
    labels, confidence = model.decide(test)
    assert labels.shape == confidence.shape == test.labels.shape
    assert np.all((confidence >= 0) & (confidence <= 1))


def test_the_calibrated_score_is_whichever_ranks_held_out_turns_better():
    """Errors no correction reaches (the reference is five segments away), so the score is
    about the path's own labels; one column knows which are right."""
    rng = np.random.default_rng(5)
    heuristic = FEATURES.index("heuristic_confidence")
    engine_knows, features_know = [], []
    for _ in range(4):
        evidence, _ = synthetic_document(rng, 150, informative=False)
        right = rng.random(len(evidence.labels)) < 0.7
        reference = np.where(right, evidence.labels, evidence.labels + 5)
        knows = right + 0.5 * rng.random(len(right))
        for column, documents in ((heuristic, engine_knows), (0, features_know)):
            features = rng.normal(size=evidence.features.shape)
            features[:, column] = knows
            documents.append((replace(evidence, features=features), reference))
    assert fit_decision(engine_knows).correctness is None
    learned = fit_decision(features_know)
    assert learned.correctness is not None
    assert learned.held_out["learned_auroc"] > learned.held_out["heuristic_auroc"]


def test_gold_the_path_gets_all_right_stores_json_without_nan():
    rng = np.random.default_rng(6)
    documents = []
    for _ in range(3):
        evidence, _ = synthetic_document(rng, 60, informative=False)
        documents.append((evidence, evidence.labels.copy()))
    model = fit_decision(documents)
    stored = json.dumps(model.as_dict(), allow_nan=False)
    assert json.loads(stored)["held_out"]["heuristic_auroc"] is None
    again = LearnedDecision.from_dict(json.loads(stored))
    np.testing.assert_array_equal(again.decide(documents[0][0])[1], np.ones(60))


def test_the_paths_own_labels_have_non_negative_state_margins_on_real_meetings(two_meetings):
    """Without abstention every label is the path's own choice, so no other state of a turn
    lies on a better path; with it, a turn abstention unaligned has a negative margin."""
    meetings, params, vectors = two_meetings
    settings = {"abstention.min_words": 0, "abstention.min_support": None}
    column = FEATURES.index("state_margin_per_word")
    for meeting in meetings:
        _, kept = turn_evidence(meeting, params.with_changes(settings), vectors)
        assert (kept.features[:, column] >= 0).all()
        assert (kept.features[:, column] > 0).any()
        _, abstaining = turn_evidence(
            meeting, params.with_changes({**settings, "abstention.min_words": 1000}), vectors
        )
        assert (abstaining.labels == UNALIGNED).all()
        moved = kept.labels != UNALIGNED
        assert (abstaining.features[moved, column] < 0).all()


def opinionated_documents(rng: np.random.Generator, opinions_know: bool):
    """Gold whose path errors no correction reaches, a feature that half knows which labels
    are right, and other aligners that either agree exactly with the right labels (and
    disagree with the wrong ones) or always with the path, which tells nothing."""
    documents = []
    for _ in range(5):
        evidence, _ = synthetic_document(rng, 150, informative=False)
        right = rng.random(len(evidence.labels)) < 0.7
        reference = np.where(right, evidence.labels, evidence.labels + 5)
        features = rng.normal(size=evidence.features.shape)
        features[:, 0] = right + 1.5 * rng.normal(size=len(right))
        opinions = np.stack([evidence.labels] * len(SECOND_OPINIONS))
        if opinions_know:
            opinions[:, ~right] = reference[~right]
        evidence = replace(evidence, features=features, opinions=opinions)
        documents.append((evidence, reference))
    return documents


def test_second_opinions_are_kept_only_when_they_rank_held_out_turns_better():
    rng = np.random.default_rng(7)
    knowing = fit_decision(opinionated_documents(rng, opinions_know=True))
    assert knowing.with_opinions is not None
    assert knowing.held_out["second_opinions_auroc"] > knowing.held_out["learned_auroc"]
    assert knowing.summary()["second_opinions_kept"]
    telling_nothing = fit_decision(opinionated_documents(rng, opinions_know=False))
    assert telling_nothing.correctness is not None
    held_out = telling_nothing.held_out
    assert held_out["second_opinions_auroc"] == held_out["learned_auroc"]
    assert telling_nothing.with_opinions is None
    assert not telling_nothing.summary()["second_opinions_kept"]


def test_a_document_without_second_opinions_gets_the_other_score():
    rng = np.random.default_rng(8)
    documents = opinionated_documents(rng, opinions_know=True)
    model = fit_decision(documents)
    evidence, reference = documents[0]
    with_them = model.decide(evidence)[1]
    without = model.decide(replace(evidence, opinions=None))[1]
    without_opinions = replace(model, with_opinions=None)
    np.testing.assert_array_equal(without, without_opinions.decide(evidence)[1])
    right = evidence.labels == reference
    assert auroc(with_them, right) > auroc(without, right)
    lacking = [*documents[1:], (replace(evidence, opinions=None), reference)]
    assert fit_decision(lacking).with_opinions is None


def test_second_opinions_round_trip_and_other_aligners_are_refused():
    rng = np.random.default_rng(9)
    documents = opinionated_documents(rng, opinions_know=True)
    model = fit_decision(documents)
    stored = json.loads(json.dumps(model.as_dict()))
    again = LearnedDecision.from_dict(stored)
    evidence = documents[0][0]
    for ours, theirs in zip(model.decide(evidence), again.decide(evidence), strict=True):
        np.testing.assert_array_equal(ours, theirs)
    before_opinions = {key: value for key, value in stored.items() if key != "second_opinions"}
    assert LearnedDecision.from_dict(before_opinions).with_opinions is None
    stored["second_opinions"]["aligners"] = ["diagonal"]
    with pytest.raises(ValueError, match="second opinions came from diagonal"):
        LearnedDecision.from_dict(stored)


def test_second_opinions_are_the_other_aligners_labels_on_real_meetings(two_meetings, monkeypatch):
    meetings, params, vectors = two_meetings
    meeting = meetings[0]
    _, evidence = turn_evidence(meeting, params, vectors)
    assert evidence.opinions is not None
    assert evidence.opinions.shape == (len(SECOND_OPINIONS), len(meeting.transcript.turns))
    for row, aligner in zip(evidence.opinions, SECOND_OPINIONS, strict=True):
        other = align_meeting(meeting, params.with_changes({"aligner": aligner}), vectors)
        np.testing.assert_array_equal(row, other.labels)
    assert not all(np.array_equal(row, evidence.labels) for row in evidence.opinions)
    kept = np.flatnonzero(np.arange(len(evidence.labels)) % 2 == 0)
    mask = np.zeros(len(evidence.labels), dtype=bool)
    mask[kept] = True
    np.testing.assert_array_equal(evidence.only(mask).opinions, evidence.opinions[:, kept])
    spared = turn_evidence(meeting, params, vectors, with_opinions=False)[1]
    assert spared.opinions is None
    np.testing.assert_array_equal(spared.features, evidence.features)
    monkeypatch.setattr(pipeline, "SECOND_OPINION_MAX_CELLS", 0)
    assert turn_evidence(meeting, params, vectors)[1].opinions is None


def guarded(held_out: dict[str, float], **parts) -> LearnedDecision:
    calibration = fit_isotonic(np.array([0.2, 0.8]), np.array([0.0, 1.0]))
    return LearnedDecision(
        parts.get("corrections"),
        1.0,
        parts.get("correctness"),
        calibration,
        held_out,
        parts.get("with_opinions"),
    )


def test_nothing_is_learned_from_fewer_gold_documents_than_the_minimum():
    refusal = too_little_gold(MIN_GOLD_DOCUMENTS - 1)
    assert refusal is not None
    assert refusal.code == "too_few_documents"
    assert f"holds {MIN_GOLD_DOCUMENTS - 1} documents, fewer than the {MIN_GOLD_DOCUMENTS}" in (
        refusal.reason
    )
    assert "holds 1 document," in too_little_gold(1).reason
    assert too_little_gold(MIN_GOLD_DOCUMENTS) is None


def test_a_decision_whose_held_out_ranking_is_below_the_floor_is_refused():
    weak = guarded({"heuristic_auroc": 0.39, "learned_auroc": 0.8})
    refusal = weak_ranking(weak)
    assert refusal is not None
    assert refusal.code == "weak_ranking"
    assert "held-out AUROC is 0.39, below the floor of 0.60" in refusal.reason
    assert weak_ranking(guarded({"heuristic_auroc": AUROC_FLOOR})) is None
    unmeasured = weak_ranking(guarded({"heuristic_auroc": float("nan")}))
    assert unmeasured is not None
    assert "cannot be measured" in unmeasured.reason


def test_the_floor_reads_the_score_the_decision_calibrates():
    softmax = fit_softmax(np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([0, 0, 1, 1]), 2, RIDGE)
    figures = {"heuristic_auroc": 0.9, "learned_auroc": 0.5, "second_opinions_auroc": 0.7}
    logistic = guarded(figures, correctness=softmax)
    assert held_out_auroc(logistic) == 0.5
    assert weak_ranking(logistic) is not None
    opinions = OpinionScore(softmax, logistic.calibration)
    assert held_out_auroc(guarded(figures, correctness=softmax, with_opinions=opinions)) == 0.7
    assert held_out_auroc(guarded(figures)) == 0.9
