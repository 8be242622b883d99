"""Two-fold cross-validated quality on public_meetings as JSON (`python -m bench.align_quality`).

Each meeting is aligned with the shipped parameters tuned on the other fold only
(workers/align/defaults), then metrics are micro-averaged per fold and over all 22 meetings.
The baselines need no tuning: the diagonal path and TextTiling / C99 given the number of report
segments, scored the same way. `all_corrected_reference` scores the same alignments without the
reference turns known to repeat the uncorrected pre-alignment (`UNCORRECTED_REFERENCE`).
`hmm` is TalkSumm's HMM (report sentences as states, each turn labelled by its words'
majority segment), cross-fitted the same way with its own files (hmm-tuned-on-fold-*.json).

`--cv K [--seed S]` prints the learned decision's figures under K-fold cross-validation
instead: each fold aligned with parameters tuned on the other folds (the grid and procedure of
the shipped files) and decided by a model fitted on their gold, so every model learns from
more meetings than half of the corpus.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from workers.align.baselines.c99 import c99_labels
from workers.align.baselines.texttiling import texttiling_labels
from workers.align.corpus import corrected_turns, load_public_meetings, meeting_ids
from workers.align.document_model import Meeting
from workers.align.folds import cv_folds, defaults_file, folds, shipped_defaults
from workers.align.learning.statistics import auroc, expected_calibration_error, reliability
from workers.align.learning.turn_decision import cross_fitted
from workers.align.metrics import MeetingScores, merge_subturns, micro_average, score_meeting
from workers.align.params import AlignmentParams, load_params
from workers.align.pipeline import align_meeting, corpus_vectors, turn_evidence
from workers.align.tuning.tune import expand_grid, named_grid, successive_halving


def score_alignment(meeting: Meeting, labels, keep: np.ndarray | None = None) -> MeetingScores:
    """Scores over the turns in `keep` (all by default)."""
    keep = np.ones(len(labels), dtype=bool) if keep is None else keep
    turns = [turn for turn, kept in zip(meeting.transcript.turns, keep, strict=True) if kept]
    merged = merge_subturns(
        [t.id for t in turns],
        np.asarray(meeting.reference)[keep],
        np.asarray(labels)[keep],
        [t.word_count for t in turns],
    )
    return score_meeting(*merged)


def _figures(scores: dict[str, MeetingScores], folds: Sequence[DecidedFold]) -> dict:
    return {
        **{
            f"fold_{fold.name}": micro_average([scores[i] for i in fold.tested]).as_dict()
            for fold in folds
        },
        "all": micro_average(list(scores.values())).as_dict(),
    }


def _with_f1(summary: dict) -> dict:
    precision, recall = summary["unaligned_precision"], summary["unaligned_recall"]
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {**summary, "unaligned_f1": f1}


@dataclass(frozen=True)
class DecidedFold:
    """One fold of a cross-fitting: its meetings are aligned with `params` and decided by a
    model fitted on the `trained` meetings' gold, aligned with the same `params`, which were
    tuned on those meetings only."""

    name: str
    tested: list[str]
    trained: list[str]
    params: AlignmentParams


def two_folds(fold_a: list[str], fold_b: list[str]) -> list[DecidedFold]:
    """The shipped protocol: each fold with the parameters shipped for it (tuned on the other)."""
    return [
        DecidedFold("a", fold_a, fold_b, load_params(defaults_file("b"))),
        DecidedFold("b", fold_b, fold_a, load_params(defaults_file("a"))),
    ]


def learned_figures(meetings: list[Meeting], vectors, folds: Sequence[DecidedFold]) -> dict:
    """The learned decision and calibrated confidence, cross-fitted: a fold's meetings are
    aligned with parameters tuned on the other meetings, and corrected and calibrated by a
    model fitted on the other meetings' gold (aligned with those same parameters), so neither
    the parameters nor the model saw the meeting they score. The model does not learn from
    the reference turns known to repeat the uncorrected pre-alignment."""
    by_id = {m.id: m for m in meetings}
    path_labels, heuristic, folds_to_fit = {}, {}, []
    for fold in folds:
        evidence = {
            i: turn_evidence(by_id[i], fold.params, vectors) for i in fold.tested + fold.trained
        }
        for i in fold.tested:
            path_labels[i], heuristic[i] = evidence[i][0].labels, evidence[i][0].confidence
        trusted = {i: corrected_turns(by_id[i]) for i in fold.trained}
        training = [
            (evidence[i][1].only(trusted[i]), np.asarray(by_id[i].reference)[trusted[i]])
            for i in fold.trained
        ]
        folds_to_fit.append(({i: evidence[i][1] for i in fold.tested}, training))
    decided, models = cross_fitted(folds_to_fit)
    learned_labels = {i: labels for i, (labels, _) in decided.items()}
    calibrated = {i: confidence for i, (_, confidence) in decided.items()}
    kept = {
        f"deciding_fold_{fold.name}": {
            "corrections_kept": model.corrections is not None,
            "second_opinions_kept": model.with_opinions is not None,
            "held_out_inside_training": model.held_out,
        }
        for fold, model in zip(folds, models, strict=True)
    }
    ids = sorted(by_id)

    def summaries(labels: dict) -> dict:
        full = {i: score_alignment(by_id[i], labels[i]) for i in ids}
        corrected = [score_alignment(by_id[i], labels[i], corrected_turns(by_id[i])) for i in ids]
        return {
            **{k: _with_f1(v) for k, v in _figures(full, folds).items()},
            "all_corrected_reference": _with_f1(micro_average(corrected).as_dict()),
        }

    def confidence_figures(labels: dict, confidence: dict) -> dict:
        keep = np.concatenate([corrected_turns(by_id[i]) for i in ids])
        right = np.concatenate([labels[i] == np.asarray(by_id[i].reference) for i in ids])
        scores = np.concatenate([confidence[i] for i in ids])
        fold_of_turn = np.concatenate([np.full(len(labels[i]), _fold_of(i, folds)) for i in ids])
        per_fold = {}
        for fold in folds:
            mine = fold_of_turn == fold.name
            per_fold[f"auroc_fold_{fold.name}"] = auroc(scores[mine], right[mine])
            per_fold[f"ece_fold_{fold.name}"] = expected_calibration_error(
                scores[mine], right[mine]
            )
        return {
            "auroc": auroc(scores, right),
            "ece": expected_calibration_error(scores, right),
            "auroc_corrected_reference": auroc(scores[keep], right[keep]),
            "ece_corrected_reference": expected_calibration_error(scores[keep], right[keep]),
            **per_fold,
            "reliability": reliability(scores, right),
        }

    return {
        "protocol": "each fold corrected and calibrated by a model fitted on the other "
        "meetings' gold, aligned with the parameters tuned on them",
        "models": kept,
        "path": summaries(path_labels),
        "learned": summaries(learned_labels),
        "confidence_heuristic": confidence_figures(path_labels, heuristic),
        "confidence_calibrated": confidence_figures(learned_labels, calibrated),
    }


def _fold_of(meeting_id: str, folds: Sequence[DecidedFold]) -> str:
    return next(fold.name for fold in folds if meeting_id in fold.tested)


def main() -> dict:
    meetings = load_public_meetings()
    corpus = meeting_ids()
    shipped = two_folds(*folds(corpus))
    params = {m.id: shipped_defaults(m.id, corpus) for m in meetings}
    vectors = corpus_vectors(meetings, params[meetings[0].id].vectors)
    labels = {m.id: align_meeting(m, params[m.id], vectors).labels for m in meetings}
    aligned = {m.id: score_alignment(m, labels[m.id]) for m in meetings}
    corrected = [score_alignment(m, labels[m.id], corrected_turns(m)) for m in meetings]
    hmm_params = {m.id: shipped_defaults(m.id, corpus, "hmm") for m in meetings}
    hmm_vectors = corpus_vectors(meetings, hmm_params[meetings[0].id].vectors)
    hmm_labels = {m.id: align_meeting(m, hmm_params[m.id], hmm_vectors).labels for m in meetings}
    hmm = {m.id: score_alignment(m, hmm_labels[m.id]) for m in meetings}
    hmm_corrected = [score_alignment(m, hmm_labels[m.id], corrected_turns(m)) for m in meetings]
    diagonal = AlignmentParams.of("diagonal")
    baselines = {
        "diagonal": {m.id: score_alignment(m, align_meeting(m, diagonal).labels) for m in meetings},
        "texttiling": {m.id: score_alignment(m, texttiling_labels(m)) for m in meetings},
        "c99": {m.id: score_alignment(m, c99_labels(m)) for m in meetings},
    }
    return {
        "protocol": "two folds of 11 (sorted ids); each fold uses params tuned on the other",
        **_figures(aligned, shipped),
        "all_corrected_reference": micro_average(corrected).as_dict(),
        "hmm": {
            **_figures(hmm, shipped),
            "all_corrected_reference": micro_average(hmm_corrected).as_dict(),
        },
        "baselines": {name: _figures(scores, shipped)["all"] for name, scores in baselines.items()},
        "learned_decision": learned_figures(meetings, vectors, shipped),
    }


def tuned_folds(meetings: list[Meeting], vectors, k: int, seed: int) -> list[DecidedFold]:
    """`cv_folds`' K folds, each with parameters tuned on the other folds' meetings as the
    shipped files were tuned on theirs (the default grid, every setting on every meeting)."""
    by_id = {m.id: m for m in meetings}
    settings = expand_grid(AlignmentParams(), named_grid("default"))
    tuned = []
    for number, tested in enumerate(cv_folds(list(by_id), k, seed), start=1):
        trained = [i for i in sorted(by_id) if i not in tested]
        best = successive_halving([by_id[i] for i in trained], settings, vectors)[0]
        tuned.append(DecidedFold(str(number), tested, trained, best.params))
    return tuned


def main_cross_validated(k: int, seed: int) -> dict:
    """The learned decision with more training gold than a half of the corpus: K folds, each
    decided by parameters and a model made from the other K - 1."""
    meetings = load_public_meetings()
    vectors = corpus_vectors(meetings, AlignmentParams().vectors)
    decided = tuned_folds(meetings, vectors, k, seed)
    return {
        "protocol": f"{k} folds of whole meetings (folds.cv_folds, seed {seed}); each fold "
        "aligned with parameters tuned on the others (default grid) and decided by a model "
        "fitted on their gold",
        "folds": {
            f"fold_{fold.name}": {"tested": fold.tested, "params": fold.params.to_dict()}
            for fold in decided
        },
        "learned_decision": learned_figures(meetings, vectors, decided),
    }


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.align_quality", description=__doc__)
    parser.add_argument(
        "--cv",
        type=int,
        metavar="K",
        help="instead of the shipped two folds: K folds, each tuned and learned on the others "
        "(the learned decision's figures only; about half a minute per fold)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the --cv folds")
    return parser.parse_args()


if __name__ == "__main__":
    arguments = parse_arguments()
    figures = main_cross_validated(arguments.cv, arguments.seed) if arguments.cv else main()
    print(json.dumps(figures, indent=2))
