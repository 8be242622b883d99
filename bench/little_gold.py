"""How many gold documents a learned decision needs, as JSON (`python -m bench.little_gold`).

A project's first tuning runs learn from a handful of documents. This draws k meetings of
fold A as a project's gold (k = 2 to 11, `--draws` subsets each, seeded), fits the engine's
learned decision on them with the parameters shipped for fold B (tuned on fold A, as a run
tunes on its own gold), and scores the calibrated confidence on fold B's meetings, which
neither saw: AUROC and expected calibration error over their corrected reference turns, with
the engine's own confidence beside, the fit's own held-out AUROC (what
`learned.AUROC_FLOOR` reads) and how often the floor refuses it. The figures behind
`learned.MIN_GOLD_DOCUMENTS` and `AUROC_FLOOR`.
"""

from __future__ import annotations

import argparse
import json
import random

import numpy as np

from workers.align.corpus import corrected_turns, load_public_meetings, meeting_ids
from workers.align.folds import defaults_file, folds
from workers.align.learning.statistics import auroc, expected_calibration_error
from workers.align.learning.turn_decision import (
    FEATURES,
    fit_decision,
    held_out_auroc,
    weak_ranking,
)
from workers.align.params import load_params
from workers.align.pipeline import corpus_vectors, turn_evidence

SIZES = (2, 3, 4, 5, 6, 8, 11)


def _spread(values: list[float]) -> dict[str, float]:
    finite = [v for v in values if not np.isnan(v)]
    if not finite:
        return {"median": float("nan"), "min": float("nan"), "max": float("nan")}
    return {
        "median": round(float(np.median(finite)), 3),
        "min": round(float(np.min(finite)), 3),
        "max": round(float(np.max(finite)), 3),
    }


def measure(draws: int) -> dict:
    meetings = {meeting.id: meeting for meeting in load_public_meetings()}
    fold_a, fold_b = folds(meeting_ids())
    params = load_params(defaults_file("a"))
    vectors = corpus_vectors(list(meetings.values()), params.vectors)
    evidence = {i: turn_evidence(meetings[i], params, vectors)[1] for i in fold_a + fold_b}
    trusted = {i: corrected_turns(meetings[i]) for i in meetings}
    gold = {
        i: (evidence[i].only(trusted[i]), np.asarray(meetings[i].reference)[trusted[i]])
        for i in fold_a
    }
    tested_right_of = {i: np.asarray(meetings[i].reference)[trusted[i]] for i in fold_b}
    heuristic = np.concatenate(
        [evidence[i].features[trusted[i], FEATURES.index("heuristic_confidence")] for i in fold_b]
    )
    path_right = np.concatenate(
        [evidence[i].labels[trusted[i]] == tested_right_of[i] for i in fold_b]
    )
    report: dict = {
        "tested_on": "fold B, corrected reference turns",
        "engine_confidence_auroc": round(auroc(heuristic, path_right), 3),
        "engine_confidence_ece": round(expected_calibration_error(heuristic, path_right), 3),
        "sizes": {},
    }
    for size in SIZES:
        subsets = (
            [fold_a]
            if size >= len(fold_a)
            else [random.Random(1000 * size + d).sample(fold_a, size) for d in range(draws)]
        )
        rows = []
        for subset in subsets:
            decision = fit_decision([gold[i] for i in subset])
            decided = {i: decision.decide(evidence[i]) for i in fold_b}
            right = np.concatenate(
                [decided[i][0][trusted[i]] == tested_right_of[i] for i in fold_b]
            )
            confidence = np.concatenate([decided[i][1][trusted[i]] for i in fold_b])
            rows.append(
                {
                    "gold": subset,
                    "inner_auroc": held_out_auroc(decision),
                    "below_floor": weak_ranking(decision) is not None,
                    "auroc": auroc(confidence, right),
                    "ece": expected_calibration_error(confidence, right),
                    "confidence_p10_p90": float(
                        np.percentile(confidence, 90) - np.percentile(confidence, 10)
                    ),
                }
            )
        kept = [row for row in rows if not row["below_floor"]]
        report["sizes"][str(size)] = {
            "draws": len(rows),
            "auroc": _spread([row["auroc"] for row in rows]),
            "ece": _spread([row["ece"] for row in rows]),
            "inner_auroc": _spread([row["inner_auroc"] for row in rows]),
            "confidence_p10_p90": _spread([row["confidence_p10_p90"] for row in rows]),
            "below_floor": len(rows) - len(kept),
            "auroc_of_those_kept": _spread([row["auroc"] for row in kept]),
            "below_engine_confidence": sum(
                row["auroc"] < report["engine_confidence_auroc"] for row in rows
            ),
        }
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=8, help="gold subsets per size")
    parser.add_argument("--json", action="store_true", help="(the output is always JSON)")
    args = parser.parse_args()
    print(json.dumps(measure(args.draws), indent=2))


if __name__ == "__main__":
    main()
