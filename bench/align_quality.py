"""Two-fold cross-validated quality on public_meetings as JSON (`python -m bench.align_quality`).

Each meeting is aligned with the shipped parameters tuned on the other fold only
(workers/align/defaults), then metrics are micro-averaged per fold and over all 22 meetings.
The baselines need no tuning: the diagonal path and TextTiling / C99 given the number of report
segments, scored the same way. `all_corrected_reference` scores the same alignments without the
reference turns known to repeat the uncorrected pre-alignment (`UNCORRECTED_REFERENCE`).
`hmm` is TalkSumm's HMM (report sentences as states, each turn labelled by its words'
majority segment), cross-fitted the same way with its own files (hmm-tuned-on-fold-*.json).
"""

from __future__ import annotations

import json

import numpy as np

from workers.align.c99 import c99_labels
from workers.align.corpus import corrected_turns, load_public_meetings, meeting_ids
from workers.align.folds import defaults_file, folds, shipped_defaults
from workers.align.learned import auroc, cross_fitted, expected_calibration_error, reliability
from workers.align.metrics import MeetingScores, merge_subturns, micro_average, score_meeting
from workers.align.model import Meeting
from workers.align.params import AlignmentParams, load_params
from workers.align.pipeline import align_meeting, corpus_vectors, turn_evidence
from workers.align.texttiling import texttiling_labels


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


def _figures(scores: dict[str, MeetingScores], fold_a: list[str], fold_b: list[str]) -> dict:
    return {
        "fold_a": micro_average([scores[i] for i in fold_a]).as_dict(),
        "fold_b": micro_average([scores[i] for i in fold_b]).as_dict(),
        "all": micro_average(list(scores.values())).as_dict(),
    }


def _with_f1(summary: dict) -> dict:
    precision, recall = summary["unaligned_precision"], summary["unaligned_recall"]
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {**summary, "unaligned_f1": f1}


def learned_figures(meetings: list[Meeting], vectors, fold_a: list[str], fold_b: list[str]) -> dict:
    """The learned decision and calibrated confidence, cross-fitted: a fold's meetings are
    aligned with the parameters tuned on the other fold, and corrected and calibrated by a
    model fitted on the other fold's gold (aligned with those same parameters), so neither
    the parameters nor the model saw the meeting they score. The model does not learn from
    the reference turns known to repeat the uncorrected pre-alignment."""
    by_id = {m.id: m for m in meetings}
    path_labels, heuristic, folds_to_fit = {}, {}, []
    for tested, trained, tuned_on in ((fold_a, fold_b, "b"), (fold_b, fold_a, "a")):
        params = load_params(defaults_file(tuned_on))
        evidence = {i: turn_evidence(by_id[i], params, vectors) for i in tested + trained}
        for i in tested:
            path_labels[i], heuristic[i] = evidence[i][0].labels, evidence[i][0].confidence
        trusted = {i: corrected_turns(by_id[i]) for i in trained}
        training = [
            (evidence[i][1].only(trusted[i]), np.asarray(by_id[i].reference)[trusted[i]])
            for i in trained
        ]
        folds_to_fit.append(({i: evidence[i][1] for i in tested}, training))
    decided, models = cross_fitted(folds_to_fit)
    learned_labels = {i: labels for i, (labels, _) in decided.items()}
    calibrated = {i: confidence for i, (_, confidence) in decided.items()}
    kept = {
        f"trained_on_fold_{name}": {
            "corrections_kept": model.corrections is not None,
            "second_opinions_kept": model.with_opinions is not None,
            "held_out_inside_training": model.held_out,
        }
        for name, model in zip("ba", models, strict=True)
    }
    ids = sorted(by_id)

    def summaries(labels: dict) -> dict:
        full = {i: score_alignment(by_id[i], labels[i]) for i in ids}
        corrected = [score_alignment(by_id[i], labels[i], corrected_turns(by_id[i])) for i in ids]
        return {
            **{k: _with_f1(v) for k, v in _figures(full, fold_a, fold_b).items()},
            "all_corrected_reference": _with_f1(micro_average(corrected).as_dict()),
        }

    def confidence_figures(labels: dict, confidence: dict) -> dict:
        keep = np.concatenate([corrected_turns(by_id[i]) for i in ids])
        right = np.concatenate([labels[i] == np.asarray(by_id[i].reference) for i in ids])
        scores = np.concatenate([confidence[i] for i in ids])
        fold_of_turn = np.concatenate([np.full(len(labels[i]), i in fold_a) for i in ids])
        return {
            "auroc": auroc(scores, right),
            "auroc_fold_a": auroc(scores[fold_of_turn], right[fold_of_turn]),
            "auroc_fold_b": auroc(scores[~fold_of_turn], right[~fold_of_turn]),
            "ece": expected_calibration_error(scores, right),
            "ece_fold_a": expected_calibration_error(scores[fold_of_turn], right[fold_of_turn]),
            "ece_fold_b": expected_calibration_error(scores[~fold_of_turn], right[~fold_of_turn]),
            "auroc_corrected_reference": auroc(scores[keep], right[keep]),
            "ece_corrected_reference": expected_calibration_error(scores[keep], right[keep]),
            "reliability": reliability(scores, right),
        }

    return {
        "protocol": "fold A corrected and calibrated by a model fitted on fold B's gold "
        "(aligned with fold B's parameters) and the reverse",
        "models": kept,
        "path": summaries(path_labels),
        "learned": summaries(learned_labels),
        "confidence_heuristic": confidence_figures(path_labels, heuristic),
        "confidence_calibrated": confidence_figures(learned_labels, calibrated),
    }


def main() -> dict:
    meetings = load_public_meetings()
    corpus = meeting_ids()
    fold_a, fold_b = folds(corpus)
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
        **_figures(aligned, fold_a, fold_b),
        "all_corrected_reference": micro_average(corrected).as_dict(),
        "hmm": {
            **_figures(hmm, fold_a, fold_b),
            "all_corrected_reference": micro_average(hmm_corrected).as_dict(),
        },
        "baselines": {
            name: _figures(scores, fold_a, fold_b)["all"] for name, scores in baselines.items()
        },
        "learned_decision": learned_figures(meetings, vectors, fold_a, fold_b),
    }


if __name__ == "__main__":
    print(json.dumps(main(), indent=2))
