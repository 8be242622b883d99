"""What gold teaches beyond the grid search: per-turn corrections and a calibrated confidence.

The turn path's parameters are a handful of numbers shared by every turn; the gold says, turn
by turn, where the path was wrong, and those errors are mostly of two kinds an annotator
fixes by hand: a turn the report never mentions given a segment, and a boundary turn given
the neighbouring segment. A small multinomial logistic regression over evidence the path
already computed predicts those corrections; it is kept only when it beats the path on gold
it did not see (cross-fitted by document inside the training documents), because a model
that learns noise would make every later pre-alignment worse. The heuristic confidence ranks
turns but is not a probability, so a logistic model of "this label is right" is mapped
through isotonic regression (pool adjacent violators) onto observed accuracy.

The statistics (the logistic models, isotonic regression, AUROC) are generic and live in
`statistics`; a fitted `LearnedDecision` is plain JSON (coefficients, scaling, isotonic
breakpoints) so it can be stored beside a parameter set.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np

from workers.align.annotation.error_runs import fit_run_correlation
from workers.align.document_model import UNALIGNED
from workers.align.folds import cv_folds
from workers.align.learning.statistics import Isotonic, Softmax, auroc, fit_isotonic, fit_softmax
from workers.align.report_order import keeps_report_order

FEATURES = (
    "evidence_chosen",
    "evidence_previous_segment",
    "evidence_next_segment",
    "path_margin",
    "state_margin_per_word",
    "best_anywhere_over_chosen",
    "unaligned_gain_per_word",
    "evidence_over_gain",
    "log_words",
    "position",
    "speaker_changes_before",
    "speaker_changes_after",
    "unaligned",
    "previous_unaligned",
    "next_unaligned",
    "same_as_previous",
    "same_as_next",
    "log_run_length",
    "heuristic_confidence",
)
"""One column of the feature matrix each, in order."""

KEEP, TO_UNALIGNED, TO_CANDIDATE, TO_PREVIOUS, TO_NEXT = range(5)
"""Corrections the decision may make to a path label: none, unaligned, the best segment the
neighbours allow (for a turn the path left unaligned), the segment before, the segment after."""
N_CORRECTIONS = 5
EVIDENCE_FLOOR = -2.0
"""Per-word evidence given to a segment that does not exist (before the first, after the last)."""
RIDGE = 1.0
"""L2 penalty of both logistic models on standardised features: enough to keep the
coefficients finite when a correction never occurs in a training set."""
INNER_FOLDS = 3
CORRECTION_THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.9)
"""Probabilities a correction may need before it applies; the training gold picks one."""
SECOND_OPINIONS = ("hmm", "gapped", "dp")
"""The engine's other aligners, whose labels for the same turns the correctness score may
read: where independent paths agree with a label it is more often right, and they err on
other turns than the turn path does (a committee's disagreement)."""

MIN_GOLD_DOCUMENTS = 5
"""The fewest gold documents a learned decision (corrections and calibration) is fitted from.
Every choice it makes (keep the corrections or not, at which threshold; which score to
calibrate) and its isotonic map rest on figures cross-fitted by document over INNER_FOLDS
folds: from five documents every inner model learns from three or more, while from three each
learns from two and the held-out figures are one document's worth. A run on three documents
of a new project chose a score whose held-out AUROC was 0.39 and mapped every turn of the next
682-turn meeting to 0.96-1.0 (issue #34). On public_meetings gold (`python -m
bench.little_gold`) the figures show no sharp step: fitted on 2 to 6 meetings, the
calibrated confidence ranks unseen meetings' turns about as the engine's own does (median
AUROC 0.77 to 0.79 against 0.77, below it in 2 or 3 draws of 6) while its calibration error
is far lower (median 0.04 to 0.08 against 0.20); from 8 it ranks better in every draw
(median 0.84). Five is where the inner cross-fitting stops resting on pairs of documents."""
AUROC_FLOOR = 0.6
"""The held-out AUROC below which a fitted decision is refused: 0.5 is chance, and an
isotonic map of a score that barely ranks right labels above wrong ones flattens toward the
gold's overall accuracy, so every turn gets about the same confidence and none is flagged.
The engine's own confidence ranks at 0.63 on the diagonal's first iteration and 0.74 to 0.80
on tuned paths (docs/align-engine.md), so a calibration below 0.6 would replace a confidence
that ranks better with one that hides the turns to correct. On public_meetings gold no fit
from 2 to 11 meetings came near it (held-out AUROC 0.66 to 0.90 over 37 fits,
`bench.little_gold`): it refuses fits like the issue's, not ordinary small gold."""


@dataclass(frozen=True)
class TurnEvidence:
    """What the path computed about each turn of one document, for learning from its gold.

    `candidate` is the segment a correction refers to: the turn's own, or for a turn the
    path left unaligned the best segment between its aligned neighbours' (-1 without one).
    `opinions` is (len(SECOND_OPINIONS), turns): each other aligner's labels, or None for a
    document too large to align again (`pipeline.second_opinions`).
    """

    labels: np.ndarray
    candidate: np.ndarray
    n_segments: int
    features: np.ndarray
    word_counts: np.ndarray
    opinions: np.ndarray | None = None

    def only(self, turns: np.ndarray) -> TurnEvidence:
        """The evidence of some turns (a boolean mask), for training on gold whose other
        turns are known to be wrong; each turn keeps the features it had among all its
        neighbours."""
        return TurnEvidence(
            self.labels[turns],
            self.candidate[turns],
            self.n_segments,
            self.features[turns],
            self.word_counts[turns],
            None if self.opinions is None else self.opinions[:, turns],
        )


Gold = tuple[TurnEvidence, np.ndarray]
"""One training document: the path's evidence and the reference labels."""


def turn_features(
    labels: np.ndarray,
    candidate: np.ndarray,
    evidence_per_word: np.ndarray,
    best_anywhere: np.ndarray,
    words: np.ndarray,
    unaligned_gain: float,
    speakers: Sequence[str | None],
    heuristic_confidence: np.ndarray,
    state_margin: np.ndarray,
) -> np.ndarray:
    """The (turns, len(FEATURES)) matrix. `evidence_per_word` is (turns, 3): the path's
    per-word evidence for the candidate segment, the one before and the one after
    (EVIDENCE_FLOOR where there is none); `best_anywhere` the best per-word evidence over the
    whole report; `state_margin` what the best path loses if the turn is labelled otherwise
    (`turn_margins.state_margins`)."""
    n = len(labels)
    words = np.asarray(words, dtype=np.float64)
    chosen, before, after = evidence_per_word.T
    unaligned = labels == UNALIGNED
    previous = np.concatenate(([labels[0] if n else 0], labels[:-1]))
    following = np.concatenate((labels[1:], [labels[-1] if n else 0]))
    speaker = np.array([s if s is not None else "" for s in speakers], dtype=object)
    known = speaker != ""
    change_before = np.zeros(n)
    change_after = np.zeros(n)
    if n > 1:
        differs = (speaker[1:] != speaker[:-1]) & known[1:] & known[:-1]
        change_before[1:] = differs
        change_after[:-1] = differs
    run_starts = np.flatnonzero(np.diff(labels, prepend=np.int64(-3)) != 0)
    run_lengths = np.diff(np.append(run_starts, n))
    run_of_turn = np.repeat(run_lengths, run_lengths) if n else np.zeros(0)
    gain_per_word = unaligned_gain / np.maximum(words, 1.0)
    total_evidence = chosen * words - unaligned_gain
    columns = [
        chosen,
        before,
        after,
        chosen - np.maximum(before, after),
        _signed_log(np.asarray(state_margin, dtype=np.float64) / np.maximum(words, 1.0)),
        best_anywhere - chosen,
        np.log1p(gain_per_word),
        _signed_log(total_evidence),
        np.log1p(words),
        np.arange(n) / max(n - 1, 1),
        change_before,
        change_after,
        unaligned,
        previous == UNALIGNED,
        following == UNALIGNED,
        previous == labels,
        following == labels,
        np.log(np.maximum(run_of_turn, 1)),
        heuristic_confidence,
    ]
    return np.column_stack([np.asarray(c, dtype=np.float64) for c in columns]).reshape(
        n, len(FEATURES)
    )


def _signed_log(values: np.ndarray) -> np.ndarray:
    """Keeps the sign and the order of magnitude: margins run from a fraction of a word to
    thousands of words times similarity, and a linear model would read only the largest."""
    return np.sign(values) * np.log1p(np.abs(values))


def correction_targets(evidence: TurnEvidence, reference: np.ndarray) -> np.ndarray:
    """Per turn, the correction that gives the reference label, or KEEP when the path is
    right or no correction reaches the reference (the model cannot fix those)."""
    reference = np.asarray(reference, dtype=np.int64)
    targets = np.full(len(reference), KEEP, dtype=np.int64)
    for correction in (TO_NEXT, TO_PREVIOUS, TO_CANDIDATE, TO_UNALIGNED):
        proposed = apply_corrections(evidence, np.full(len(reference), correction))
        targets[(proposed == reference) & (evidence.labels != reference)] = correction
    return targets


def apply_corrections(evidence: TurnEvidence, corrections: np.ndarray) -> np.ndarray:
    """Path labels with each turn's correction applied where it names a real segment."""
    labels = evidence.labels.copy()
    candidate = evidence.candidate
    aligned = labels != UNALIGNED
    proposals = {
        TO_UNALIGNED: np.where(aligned, UNALIGNED, labels),
        TO_CANDIDATE: np.where(~aligned & (candidate >= 0), candidate, labels),
        TO_PREVIOUS: np.where(candidate > 0, candidate - 1, labels),
        TO_NEXT: np.where(
            (candidate >= 0) & (candidate < evidence.n_segments - 1), candidate + 1, labels
        ),
    }
    for correction, proposed in proposals.items():
        chosen = corrections == correction
        labels[chosen] = proposed[chosen]
    return labels


@dataclass(frozen=True)
class OpinionScore:
    """A correctness score that also reads the second opinions, with its own map."""

    correctness: Softmax
    calibration: Isotonic

    def as_dict(self) -> dict[str, Any]:
        return {
            "aligners": list(SECOND_OPINIONS),
            "correctness": self.correctness.as_dict(),
            "calibration": self.calibration.as_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> OpinionScore:
        if list(data["aligners"]) != list(SECOND_OPINIONS):
            raise ValueError(
                f"its second opinions came from {', '.join(data['aligners'])}, not this "
                f"engine's {', '.join(SECOND_OPINIONS)}; a new tuning run (or `tune --learn`) "
                "fits one for this engine"
            )
        return cls(Softmax.from_dict(data["correctness"]), Isotonic.from_dict(data["calibration"]))


@dataclass(frozen=True)
class LearnedDecision:
    """A fitted correction model (None when it did not beat the path on held-out gold) and
    the calibration of the final labels' correctness."""

    corrections: Softmax | None
    threshold: float
    """The probability a correction needs before it applies."""
    correctness: Softmax | None
    """The model of "this label is right" whose score the calibration maps, or None when the
    engine's own confidence ranked held-out turns better (then that is the score)."""
    calibration: Isotonic
    held_out: dict[str, float]
    """The inner cross-fitted figures the keep-or-refuse choice was made on."""
    with_opinions: OpinionScore | None = None
    """The score for documents whose second opinions were computed, when it ranked held-out
    turns better than the score above; a document without them (too large to align again)
    gets the score above."""
    run_correlation: float = 0.0
    """How strongly a turn's label being wrong goes with its neighbour's, on the training
    gold, once the held-out confidences are moved to each document's own error
    (`workers.align.annotation.error_runs.fit_run_correlation`): what a review that follows
    changes to their neighbours counts on. A decision stored before it was measured reads 0,
    independent turns."""

    def decide(self, evidence: TurnEvidence) -> tuple[np.ndarray, np.ndarray]:
        """Final labels and the calibrated probability that each is right."""
        chosen = _chosen_corrections(self.corrections, self.threshold, evidence)
        labels = apply_corrections(evidence, chosen)
        return labels, self.confidence(evidence, labels)

    def confidence(self, evidence: TurnEvidence, labels: np.ndarray) -> np.ndarray:
        """The calibrated probability that each of `labels` is right (the decision's own
        labels, or another decision's for the same evidence, to compare calibrations)."""
        if self.with_opinions is not None and evidence.opinions is not None:
            features = _opinion_features(evidence, labels)
            score = self.with_opinions.correctness.probabilities(features)[:, 1]
            return self.with_opinions.calibration(score)
        return self.calibration(_correctness_score(self.correctness, evidence, labels))

    def summary(self) -> dict[str, Any]:
        """What a person reading a tuning report needs: was each part kept, and on what."""
        return {
            "corrections_kept": self.corrections is not None,
            "threshold": self.threshold,
            "calibration_score": "engine" if self.correctness is None else "logistic",
            "second_opinions_kept": self.with_opinions is not None,
            "held_out": _json_safe(self.held_out),
        }

    def as_dict(self) -> dict[str, Any]:
        return {
            "features": list(FEATURES),
            "corrections": None if self.corrections is None else self.corrections.as_dict(),
            "threshold": self.threshold,
            "correctness": None if self.correctness is None else self.correctness.as_dict(),
            "calibration": self.calibration.as_dict(),
            "second_opinions": None if self.with_opinions is None else self.with_opinions.as_dict(),
            "held_out": _json_safe(self.held_out),
            "run_correlation": self.run_correlation,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LearnedDecision:
        """A decision stored before second opinions existed reads without them."""
        fitted_on = list(data.get("features", []))
        if fitted_on != list(FEATURES):
            missing = [name for name in FEATURES if name not in fitted_on]
            unknown = [name for name in fitted_on if name not in FEATURES]
            raise ValueError(
                "it was fitted on other features than this engine computes (missing: "
                f"{', '.join(missing) or 'none'}; unknown: {', '.join(unknown) or 'none'}); "
                "a new tuning run (or `tune --learn`) fits one for this engine"
            )
        opinions = data.get("second_opinions")
        return cls(
            None if data["corrections"] is None else Softmax.from_dict(data["corrections"]),
            float(data["threshold"]),
            None if data["correctness"] is None else Softmax.from_dict(data["correctness"]),
            Isotonic.from_dict(data["calibration"]),
            {
                name: float("nan") if value is None else float(value)
                for name, value in data.get("held_out", {}).items()
            },
            None if opinions is None else OpinionScore.from_dict(opinions),
            float(data.get("run_correlation", 0.0)),
        )


RefusalCode = Literal["too_few_documents", "weak_ranking"]


@dataclass(frozen=True)
class Refusal:
    """Why no learned decision was fitted from some gold, or why the one fitted is not kept:
    a code for programs and a sentence for the lead."""

    code: RefusalCode
    reason: str


def too_little_gold(documents: int) -> Refusal | None:
    """A refusal when `documents` gold documents are fewer than MIN_GOLD_DOCUMENTS; then
    nothing is fitted."""
    if documents >= MIN_GOLD_DOCUMENTS:
        return None
    return Refusal(
        "too_few_documents",
        f"The gold holds {documents} document{'' if documents == 1 else 's'}, fewer than the "
        f"{MIN_GOLD_DOCUMENTS} a calibrated confidence and learned corrections are fitted from.",
    )


def held_out_auroc(decision: LearnedDecision) -> float:
    """The held-out AUROC of the score whose calibration most documents get: the one reading
    second opinions when it was kept, else the logistic model's or the engine's own."""
    if decision.with_opinions is not None:
        name = "second_opinions_auroc"
    elif decision.correctness is not None:
        name = "learned_auroc"
    else:
        name = "heuristic_auroc"
    return float(decision.held_out.get(name, float("nan")))


def weak_ranking(decision: LearnedDecision) -> Refusal | None:
    """A refusal when the decision's held-out AUROC is below AUROC_FLOOR, or cannot be
    measured (the gold's labels all right, or all wrong, so nothing says the score ranks)."""
    value = held_out_auroc(decision)
    if value >= AUROC_FLOOR:
        return None
    measured = (
        "cannot be measured (every label of the gold was right, or every one wrong)"
        if np.isnan(value)
        else f"is {value:.2f}"
    )
    return Refusal(
        "weak_ranking",
        f"The confidence calibrated on this gold ranks held-out turns too poorly: its "
        f"held-out AUROC {measured}, below the floor of {AUROC_FLOOR:.2f}; mapped to "
        "probabilities, it would give nearly every turn the same confidence.",
    )


def _json_safe(figures: dict[str, float]) -> dict[str, float | None]:
    """NaN (an AUROC of gold where every turn is right) as null: JSON has no NaN and
    PostgreSQL refuses it."""
    return {name: None if np.isnan(value) else value for name, value in figures.items()}


def _correctness_features(evidence: TurnEvidence, labels: np.ndarray) -> np.ndarray:
    """The path's features and whether, and how, the decision moved the label."""
    moved = labels != evidence.labels
    return np.column_stack(
        [evidence.features, moved, moved & (labels == UNALIGNED), labels == UNALIGNED]
    )


def _opinion_features(evidence: TurnEvidence, labels: np.ndarray) -> np.ndarray:
    """The correctness features and, per other aligner, whether it gives the same label and
    whether it leaves the turn unaligned."""
    assert evidence.opinions is not None
    return np.column_stack(
        [
            _correctness_features(evidence, labels),
            (evidence.opinions == labels).T,
            (evidence.opinions == UNALIGNED).T,
        ]
    )


def _stack(documents: Sequence[Gold]) -> tuple[np.ndarray, np.ndarray]:
    features = np.concatenate([e.features for e, _ in documents])
    targets = np.concatenate([correction_targets(e, r) for e, r in documents])
    return features, targets


def _hits(documents: Sequence[Gold], labels: Sequence[np.ndarray]) -> tuple[int, int]:
    turns = words = 0
    for (evidence, reference), predicted in zip(documents, labels, strict=True):
        right = predicted == reference
        turns += int(np.count_nonzero(right))
        words += int(evidence.word_counts[right].sum())
    return turns, words


def fit_decision(
    documents: Sequence[Gold],
    inner_folds: int = INNER_FOLDS,
    seed: int = 0,
) -> LearnedDecision:
    """Fit on gold `documents` (evidence, reference labels). A correction applies when the
    model gives it at least a threshold's probability; the threshold is the one of
    CORRECTION_THRESHOLDS that, cross-fitted by document over `inner_folds` folds of these
    documents, gets the most turns right, and the model is kept only if there it gets more
    turns and at least as many words right as the path alone."""
    keys = [str(i) for i in range(len(documents))]
    out_of_fold: dict[int, np.ndarray] = {}
    if len(documents) >= 2:
        for test in cv_folds(keys, min(inner_folds, len(documents)), seed):
            model = fit_softmax(
                *_stack([documents[int(k)] for k in keys if k not in test]), N_CORRECTIONS, RIDGE
            )
            for k in test:
                out_of_fold[int(k)] = model.probabilities(documents[int(k)][0].features)
    path_turns, path_words = _hits(documents, [e.labels for e, _ in documents])
    held_out: dict[str, float] = {"path_turn_hits": path_turns, "path_word_hits": path_words}
    best: float | None = None
    for threshold in CORRECTION_THRESHOLDS if out_of_fold else ():
        learned = [
            apply_corrections(e, _thresholded(e, out_of_fold[i], threshold))
            for i, (e, _) in enumerate(documents)
        ]
        turns, words = _hits(documents, learned)
        held_out[f"learned_turn_hits_at_{threshold:g}"] = turns
        held_out[f"learned_word_hits_at_{threshold:g}"] = words
        beats_path = turns > path_turns and words >= path_words
        if beats_path and (best is None or turns > held_out[f"learned_turn_hits_at_{best:g}"]):
            best = threshold
    if best is None:
        return fit_calibration(documents, None, 1.0, held_out)
    corrections = fit_softmax(*_stack(documents), N_CORRECTIONS, RIDGE)
    return fit_calibration(documents, corrections, best, held_out)


def _thresholded(evidence: TurnEvidence, probabilities: np.ndarray, threshold: float) -> np.ndarray:
    """Per turn, its likeliest correction if the model gives it at least `threshold` and it
    keeps the report's order."""
    if len(probabilities) == 0:
        return np.zeros(0, dtype=np.int64)
    likeliest = probabilities[:, 1:].argmax(axis=1) + 1
    sure = probabilities[np.arange(len(probabilities)), likeliest] >= threshold
    return in_report_order(evidence, probabilities, np.where(sure, likeliest, KEEP))


def in_report_order(
    evidence: TurnEvidence, probabilities: np.ndarray, chosen: np.ndarray
) -> np.ndarray:
    """`chosen` corrections less those that would leave the labels out of the report's order
    (`report_order`: an aligned turn's segment never before that of an aligned turn before
    it). Annotations must keep that order (the server refuses every save that leaves a
    document out of it), so on a pre-alignment that broke it each edit would be refused until
    the annotator mended it; the path's own labels keep it. Corrections are tried likeliest
    first, so of two that clash the likelier stays.

    probabilities: (turns, N_CORRECTIONS); chosen: (turns,) correction per turn, KEEP for none.
    """
    labels = evidence.labels.copy()
    proposed = apply_corrections(evidence, chosen)
    kept = np.full(len(chosen), KEEP, dtype=np.int64)
    turns = np.flatnonzero(chosen != KEEP)
    turns = turns[np.argsort(-probabilities[turns, chosen[turns]], kind="stable")]
    for turn in turns:
        trial = labels.copy()
        trial[turn] = proposed[turn]
        if keeps_report_order(trial):
            labels, kept[turn] = trial, chosen[turn]
    return kept


def fit_calibration(
    documents: Sequence[Gold],
    corrections: Softmax | None,
    threshold: float,
    held_out: dict[str, float],
    inner_folds: int = INNER_FOLDS,
    seed: int = 0,
) -> LearnedDecision:
    """A score of the final labels' correctness and its isotonic map, both from the training
    gold only. The score is a logistic model over the features, or the engine's own
    confidence when that ranks turns better cross-fitted inside these documents (a linear
    model can fall short of the heuristic on documents unlike its training ones); the map is
    fitted on the chosen score's out-of-fold values, so it is calibrated for documents the
    score did not see. When every training document has its second opinions, a logistic
    model that also reads them is kept beside, for the documents that have them, if it ranks
    the same held-out turns better still: the gold, not a guess, says whether they help."""
    finals = [
        apply_corrections(e, _chosen_corrections(corrections, threshold, e)) for e, _ in documents
    ]
    right = [lab == ref for (_, ref), lab in zip(documents, finals, strict=True)]
    outcomes = np.concatenate(right) if right else np.zeros(0, dtype=bool)
    rows = [_correctness_features(e, lab) for (e, _), lab in zip(documents, finals, strict=True)]
    heuristic = [e.features[:, FEATURES.index("heuristic_confidence")] for e, _ in documents]
    learned = _out_of_fold_correctness(rows, right, inner_folds, seed)
    held_out = {
        **held_out,
        "heuristic_auroc": auroc(np.concatenate(heuristic), outcomes),
        "learned_auroc": auroc(np.concatenate(learned), outcomes),
    }
    can_learn = len(documents) > 1
    if can_learn and held_out["learned_auroc"] > held_out["heuristic_auroc"]:
        correctness = fit_softmax(np.concatenate(rows), outcomes.astype(np.int64), 2, RIDGE)
        chosen = learned
    else:
        correctness = None
        chosen = heuristic
    calibration = fit_isotonic(np.concatenate(chosen), outcomes).interpolating()
    calibration_of_chosen = calibration
    with_opinions = None
    if can_learn and all(e.opinions is not None for e, _ in documents):
        opinion_rows = [
            _opinion_features(e, lab) for (e, _), lab in zip(documents, finals, strict=True)
        ]
        by_document = _out_of_fold_correctness(opinion_rows, right, inner_folds, seed)
        scores = np.concatenate(by_document)
        held_out["second_opinions_auroc"] = auroc(scores, outcomes)
        chosen_auroc = held_out["heuristic_auroc" if correctness is None else "learned_auroc"]
        if held_out["second_opinions_auroc"] > chosen_auroc:
            with_opinions = OpinionScore(
                fit_softmax(np.concatenate(opinion_rows), outcomes.astype(np.int64), 2, RIDGE),
                fit_isotonic(scores, outcomes).interpolating(),
            )
            chosen, calibration_of_chosen = by_document, with_opinions.calibration
    run_correlation = fit_run_correlation(
        [calibration_of_chosen(score) for score in chosen], [~r for r in right]
    )
    return LearnedDecision(
        corrections,
        threshold,
        correctness,
        calibration,
        held_out,
        with_opinions,
        run_correlation,
    )


def _out_of_fold_correctness(
    rows: Sequence[np.ndarray], right: Sequence[np.ndarray], inner_folds: int, seed: int
) -> list[np.ndarray]:
    """Per document, the probability that each label is right from a logistic model fitted on
    the other inner folds' documents (zeros when there is one document)."""
    scores = [np.zeros(len(r)) for r in right]
    keys = [str(i) for i in range(len(rows))]
    for test in cv_folds(keys, min(inner_folds, len(keys)), seed) if len(keys) > 1 else []:
        train = [int(k) for k in keys if k not in test]
        model = fit_softmax(
            np.concatenate([rows[i] for i in train]),
            np.concatenate([right[i] for i in train]).astype(np.int64),
            2,
            RIDGE,
        )
        for k in test:
            scores[int(k)] = model.probabilities(rows[int(k)])[:, 1]
    return scores


def _chosen_corrections(
    corrections: Softmax | None, threshold: float, evidence: TurnEvidence
) -> np.ndarray:
    if corrections is None or len(evidence.labels) == 0:
        return np.full(len(evidence.labels), KEEP)
    return _thresholded(evidence, corrections.probabilities(evidence.features), threshold)


def _correctness_score(
    correctness: Softmax | None, evidence: TurnEvidence, labels: np.ndarray
) -> np.ndarray:
    if correctness is None:
        return evidence.features[:, FEATURES.index("heuristic_confidence")]
    return correctness.probabilities(_correctness_features(evidence, labels))[:, 1]


def cross_fitted(
    folds: Sequence[tuple[dict[str, TurnEvidence], Sequence[Gold]]],
) -> tuple[dict[str, tuple[np.ndarray, np.ndarray]], list[LearnedDecision]]:
    """Per fold (documents to decide, gold of the other documents), the fold's documents
    decided by a model fitted on the other documents' gold only: final labels and calibrated
    confidence per document, and the fitted models. A decided document's own gold is never
    an argument, so no document's confidence comes from a map that saw it."""
    decided: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    models = []
    for tested, training in folds:
        model = fit_decision(training)
        models.append(model)
        for document_id, evidence in tested.items():
            decided[document_id] = model.decide(evidence)
    return decided, models


def load_learned(path: str | Path) -> LearnedDecision | None:
    """The learned decision stored beside a parameter set (`tune --learn`), if any."""
    document = json.loads(Path(path).read_text(encoding="utf-8"))
    stored = document.get("learned") if isinstance(document, dict) else None
    if stored is None:
        return None
    try:
        return LearnedDecision.from_dict(stored)
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"{path}: its learned decision cannot be read: {error}") from error


def store_learned(path: str | Path, learned: LearnedDecision) -> None:
    """Add a learned decision to a params file, beside the parameters it was fitted with."""
    document = json.loads(Path(path).read_text(encoding="utf-8"))
    document["learned"] = learned.as_dict()
    Path(path).write_text(json.dumps(document, indent=2, sort_keys=True) + "\n", encoding="utf-8")
