"""Confidence-guided review on public_meetings over seeds, as JSON: turns reviewed against wrong
labels left in the gold, and how far the estimated residual error is from the measured one.

    TANDEM_DATA_DIR=var/sim DJANGO_SECRET_KEY=bench .venv/bin/python -m bench.review_curve \\
        --runs var/sim/review [--seeds 1,2,3] [--batches 4,6,6,6] [--policies auto,none] \\
        [--starting shipped] [--top-up] [--shown-only] [--spot-check SHARE]

Each (policy, seed) is one `manage.py simulate_bootstrap --review-threshold POLICY` run on a
real worker (`--start-worker`; `none` is the default loop, every turn read), its report kept as
RUNS/POLICY-seedS.json, or RUNS/POLICY-from-shipped-seedS.json with `--starting shipped` (the
loop of a new project, whose first batch the shipped defaults pre-align, not the diagonal),
with `top-up-` after POLICY- for `--top-up` (annotators read on where the shown turns proved
wrong, `simulate_bootstrap --review-top-up`) and `shown-only-` for `--shown-only` (they read
the shown turns only, not the neighbours of those they change, and `auto` plans for that,
`simulate_bootstrap --review-shown-only`), and `spot-check-SHARE-` for `--spot-check SHARE`
(they then read a random SHARE of the turns left unread, `simulate_bootstrap
--review-spot-check`, and the estimate with it is measured too): a report already there is
read, not run again, so an interrupted sweep resumes. The database and broker are the
environment's (migrate it first). The last iteration is closed without tuning, which nothing
would use.

The figures: per policy and iteration, the median and range over seeds of what the loop
measured (`loop`); and per policy's runs, for each threshold of the curve every iteration
reports (CURVE_THRESHOLDS and `auto`'s), what review under it gives on that iteration's
pre-alignments (`curve`): the threshold only decides which turns are shown, so one run's
pre-alignments give every point, but the pre-alignments themselves come from a loop whose
earlier gold was made under the run's own policy. With `--spot-check`, `spread_check` counts
over every iteration of every seed the spot-checked estimates that missed by at most one and
two of the standard deviations given with them (`spot_checked_error_sd`).

With `--offline` it runs no simulation: the 22 meetings are pre-aligned two-fold as the shipped
defaults are measured (each fold with the parameters tuned on the other and the learned
decision fitted on the other's gold, docs/align-engine.md), so that every turn carries a
calibrated confidence from a model that never saw its meeting, and it prints the curve over
each fold's meetings and all of them against the corpus's reference. No Django, database or
worker is needed then.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np

from backend.simulation.review import meets_bar
from workers.align.annotation.review import (
    CURVE_THRESHOLDS,
    DEFAULT_RESIDUAL_ERROR_TARGET,
    plan_review,
    threshold_for_residual_error,
    turns_to_review,
)
from workers.align.corpus import load_public_meetings, meeting_ids
from workers.align.folds import defaults_file, folds
from workers.align.learning.turn_decision import fit_decision
from workers.align.params import load_params
from workers.align.pipeline import corpus_vectors, turn_evidence

ROOT = Path(__file__).resolve().parent.parent
LOOP_FIGURES = (
    "review_threshold",
    "reviewed_share",
    "changed_share",
    "residual_error",
    "estimated_residual_error",
    "residual_error_corrected",
    "estimated_residual_error_corrected",
    "estimated_residual_error_after_review",
    "estimated_residual_error_after_review_corrected",
    "spot_checked_share",
    "estimated_residual_error_spot_checked",
    "estimated_residual_error_spot_checked_corrected",
    "spot_checked_error_sd",
    "spot_checked_error_sd_corrected",
    "pre_alignment_accuracy",
)
ESTIMATES = {
    "estimate_off_by": ("estimated_residual_error", "residual_error"),
    "estimate_off_by_corrected": ("estimated_residual_error_corrected", "residual_error_corrected"),
    "after_review_off_by": ("estimated_residual_error_after_review", "residual_error"),
    "after_review_off_by_corrected": (
        "estimated_residual_error_after_review_corrected",
        "residual_error_corrected",
    ),
    "spot_checked_off_by": ("estimated_residual_error_spot_checked", "residual_error"),
    "spot_checked_off_by_corrected": (
        "estimated_residual_error_spot_checked_corrected",
        "residual_error_corrected",
    ),
}
"""Each estimate of the gold's residual error, against the one measured (the spot-checked one
only in runs with `--spot-check`)."""
CURVE_FIGURES = ("reviewed_share", "changed_share", "residual_error", "estimated_residual_error")


def run(
    runs: Path,
    policy: str,
    seed: int,
    batches: str,
    starting: str,
    top_up: bool,
    shown_only: bool,
    spot_check: float,
) -> dict[str, Any]:
    start = "" if starting == "diagonal" else f"from-{starting}-"
    read_on = (
        ("top-up-" if top_up else "")
        + ("shown-only-" if shown_only else "")
        + (f"spot-check-{spot_check:g}-" if spot_check else "")
    )
    report = runs / f"{policy}-{read_on}{start}seed{seed}.json"
    if not report.exists():
        command = [
            sys.executable, "manage.py", "simulate_bootstrap", "--batches", batches,
            "--seed", str(seed), "--start-worker", "--no-final-tuning", "--json", str(report),
            "--starting", starting,
        ]  # fmt: skip
        if policy != "none":
            command += ["--review-threshold", policy]
            command += ["--review-top-up"] if top_up else []
            command += ["--review-shown-only"] if shown_only else []
            command += ["--review-spot-check", f"{spot_check:g}"] if spot_check else []
        with open(report.with_suffix(".log"), "w") as log:
            subprocess.run(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, check=True)
    return json.loads(report.read_text())


def spread(values: list[float | None]) -> dict[str, float | None]:
    defined = [value for value in values if value is not None]
    if not defined:
        return {"median": None, "min": None, "max": None}
    return {
        "median": round(statistics.median(defined), 4),
        "min": round(min(defined), 4),
        "max": round(max(defined), 4),
    }


def curve_label(point: dict[str, Any]) -> str:
    return "auto" if point["auto"] else f"{point['review_threshold']:g}"


def loop_figures(reports: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per iteration, the spread over seeds of the loop's figures and of each estimate's
    distance to what it estimates; how many seeds' reviews met #39's bar; and the least
    review that would have (`backend.simulation.review.least_review`)."""
    iterations = zip(*(report["iterations"] for report in reports), strict=True)
    return [
        {
            "iteration": rows[0]["index"],
            **{name: spread([row.get(name) for row in rows]) for name in LOOP_FIGURES},
            **{
                name: spread(
                    [
                        None if row.get(estimated) is None else abs(row[estimated] - row[measured])
                        for row in rows
                    ]
                )
                for name, (estimated, measured) in ESTIMATES.items()
            },
            "seeds_meeting_the_bar": sum(
                meets_bar(row["residual_error_corrected"], row["reviewed_share"]) for row in rows
            ),
            "least_review": {
                **{
                    name: spread([row["least_review"][name] for row in rows])
                    for name in ("reviewed_share", "residual_error_corrected")
                },
                "seeds_meeting_the_bar": sum(row["least_review"]["meets_bar"] for row in rows),
            },
        }
        for rows in iterations
    ]


SPREAD_CHECKS = {
    "spot_checked": ("spot_checked_off_by", "spot_checked_error_sd"),
    "spot_checked_corrected": ("spot_checked_off_by_corrected", "spot_checked_error_sd_corrected"),
}
"""Each spot-checked estimate's distance to the measured error, and the standard deviation the
app gives it (`workers.align.annotation.spot_check.spot_checked_error_sd`)."""


def spread_check(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """Over every iteration of every seed, how the spot-checked estimates' misses compare with
    the standard deviation given with them: a normal error falls within one in 68 % of
    iterations and within two in 95 %."""
    result: dict[str, Any] = {}
    for name, (off_by, sd) in SPREAD_CHECKS.items():
        estimated, measured = ESTIMATES[off_by]
        ratios = [
            abs(row[estimated] - row[measured]) / row[sd]
            for report in reports
            for row in report["iterations"]
            if row.get(estimated) is not None and row.get(sd)
        ]
        result[name] = {
            "iterations": len(ratios),
            "within_1_sd": sum(ratio <= 1 for ratio in ratios),
            "within_2_sd": sum(ratio <= 2 for ratio in ratios),
            "median_misses_in_sds": round(statistics.median(ratios), 2) if ratios else None,
        }
    return result


def curve_figures(reports: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per iteration and threshold, the spread over seeds (a curve point whose threshold
    `auto` also gives appears once, as `auto`)."""
    iterations = zip(*(report["iterations"] for report in reports), strict=True)
    result = []
    for rows in iterations:
        points: dict[str, list[dict[str, Any]]] = {}
        for row in rows:
            for point in row["review_curve"]:
                points.setdefault(curve_label(point), []).append(point)
        result.append(
            {
                "iteration": rows[0]["index"],
                "thresholds": {
                    label: {
                        **{name: spread([p[name] for p in found]) for name in CURVE_FIGURES},
                        "threshold": spread([p["review_threshold"] for p in found]),
                        "estimate_off_by": spread(
                            [
                                abs(p["estimated_residual_error"] - p["residual_error"])
                                for p in found
                            ]
                        ),
                        "seeds": len(found),
                    }
                    for label, found in sorted(points.items())
                },
            }
        )
    return result


def two_fold_decided() -> dict[str, tuple[np.ndarray, np.ndarray, float]]:
    """Per meeting, the labels and calibrated confidences of the other fold's parameters and
    learned decision, and that decision's run correlation: a project's own calibration, from
    gold that never held the meeting."""
    meetings = {meeting.id: meeting for meeting in load_public_meetings()}
    fold_a, fold_b = folds(meeting_ids())
    decided: dict[str, tuple[np.ndarray, np.ndarray, float]] = {}
    for tuned_on, train, test in (("a", fold_a, fold_b), ("b", fold_b, fold_a)):
        params = load_params(defaults_file(tuned_on))
        vectors = corpus_vectors(list(meetings.values()), params.vectors)
        evidence = {i: turn_evidence(meetings[i], params, vectors)[1] for i in train + test}
        decision = fit_decision([(evidence[i], np.asarray(meetings[i].reference)) for i in train])
        for i in test:
            decided[i] = (*decision.decide(evidence[i]), decision.run_correlation)
    return decided


def offline_curve() -> dict[str, Any]:
    """The review curve on two-fold calibrated pre-alignments of the whole corpus, over each
    fold's meetings (pre-aligned by the other fold's parameters and decision) and both."""
    meetings = {meeting.id: meeting for meeting in load_public_meetings()}
    fold_a, fold_b = folds(meeting_ids())
    decided = two_fold_decided()
    references = {i: np.asarray(meeting.reference) for i, meeting in meetings.items()}
    return {
        name: curve_over(sorted(ids), decided, references)
        for name, ids in (("fold_a", fold_a), ("fold_b", fold_b), ("both", fold_a + fold_b))
    }


def curve_over(
    ids: list[str],
    decided: dict[str, tuple[np.ndarray, np.ndarray, float]],
    references: dict[str, np.ndarray],
) -> dict[str, Any]:
    labels = [decided[i][0] for i in ids]
    confidences = [decided[i][1] for i in ids]
    truth = [references[i] for i in ids]
    turns = sum(map(len, labels))

    def point(threshold: float) -> dict[str, Any]:
        plan = plan_review(confidences, threshold)
        wrong_left = sum(
            int(((label != reference) & ~turns_to_review(confidence, threshold)).sum())
            for label, confidence, reference in zip(labels, confidences, truth, strict=True)
        )
        return {
            "threshold": round(threshold, 4),
            "reviewed_share": round(plan.shown_share, 4),
            "residual_error": round(wrong_left / turns, 4),
            "estimated_residual_error": round(plan.estimated_residual_error, 4),
        }

    right = sum(
        int((label == reference).sum()) for label, reference in zip(labels, truth, strict=True)
    )
    automatic = threshold_for_residual_error(confidences, DEFAULT_RESIDUAL_ERROR_TARGET)
    return {
        "meetings": len(ids),
        "turns": turns,
        "pre_alignment_accuracy": round(right / turns, 4),
        "curve": [point(threshold) for threshold in CURVE_THRESHOLDS],
        "auto": point(automatic),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=Path, help="Folder of the runs' reports.")
    parser.add_argument("--offline", action="store_true", help="Two-fold curve, no simulation.")
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--batches", default="4,6,6,6")
    parser.add_argument("--policies", default="auto,none", help="auto, none, or probabilities.")
    parser.add_argument(
        "--starting",
        choices=("diagonal", "shipped"),
        default="diagonal",
        help="What pre-aligns until a set is promoted (simulate_bootstrap --starting).",
    )
    parser.add_argument(
        "--top-up",
        action="store_true",
        help="Annotators read on where the shown turns proved wrong "
        "(simulate_bootstrap --review-top-up).",
    )
    parser.add_argument(
        "--shown-only",
        action="store_true",
        help="Annotators read the shown turns only, not the neighbours of those they change "
        "(simulate_bootstrap --review-shown-only).",
    )
    parser.add_argument(
        "--spot-check",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="Annotators then read a random SHARE of the turns left unread "
        "(simulate_bootstrap --review-spot-check).",
    )
    options = parser.parse_args()
    if options.offline:
        print(json.dumps(offline_curve(), indent=2))
        return
    if options.runs is None:
        parser.error("--runs is needed unless --offline")
    options.runs.mkdir(parents=True, exist_ok=True)
    seeds = [int(seed) for seed in options.seeds.split(",")]
    figures: dict[str, Any] = {
        "seeds": seeds,
        "batches": options.batches,
        "starting": options.starting,
        "top_up": options.top_up,
        "shown_only": options.shown_only,
        "spot_check": options.spot_check,
        "policies": {},
    }
    for policy in options.policies.split(","):
        reports = [
            run(
                options.runs,
                policy,
                seed,
                options.batches,
                options.starting,
                options.top_up,
                options.shown_only,
                options.spot_check,
            )
            for seed in seeds
        ]
        figures["policies"][policy] = {
            "loop": loop_figures(reports),
            "curve": curve_figures(reports),
            "spread_check": spread_check(reports),
        }
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
