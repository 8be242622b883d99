"""The residual error estimated before and after review, against the one measured, on random
batches, under four policies of what the annotators read, as JSON.

    DJANGO_SECRET_KEY=bench TANDEM_DATA_DIR=var/bench .venv/bin/python -m bench.after_review \\
        [--sizes 4,6] [--draws 200] [--seed 0] [--meetings all|a|b] [--calibration prior|own] \\
        [--spot-check SHARE]

By default each public_meetings meeting is pre-aligned as a new project's first batch, as
`bench.first_review` does it: lexical vectors, the lexical parameters tuned on the other fold,
and the confidence of the lexical prior fitted on that fold. With `--calibration own`, it is
pre-aligned as in a project's later iterations instead: word2vec, the parameters tuned on the
other fold and the learned decision fitted on its gold (`bench.review_curve --offline`'s
pre-alignments). A batch is `size` meetings drawn at random (`draws` batches per size) among
`--meetings` (a fold, or all 22).

Its annotators review under `auto`'s threshold as the simulation's do
(`backend.simulation.review.reviewed_labels`: each shown turn is fixed to the reference as an
annotator can enter it, and a fix that breaks the report's order against a hidden turn has that
turn read and fixed too), and the rest is accepted unread. Four policies: `follow_changes`
(what the editor does) also reads the turns next to each turn changed
(`workers.align.annotation.review.next_to_changes`), to the end of each run, and `auto` plans
for it with the decision's run correlation (`workers.align.annotation.error_runs`);
`shown_only` (the review mode before it followed changes) stops at the plan's turns, planned
for that; `top_up` (an experiment) reads as `shown_only`, then, once a document's shown turns
are read, the turns `workers.align.annotation.review.threshold_reached` adds, until it adds
none; `spot_check` (an experiment) reviews as `follow_changes`, then reads a random SHARE of
each document's turns left unread (`--spot-check`, by default
`workers.align.annotation.spot_check.SPOT_CHECK_SHARE`) and follows what it changes, and has a
third estimate, `spot_checked` (`residual_error_spot_checked`).

Per batch three figures of the wrong labels left, as a share of the batch's turns: measured
against the reference, estimated by the plan (`workers.align.annotation.review.expected_left`
over the turns not shown at the batch's threshold), and estimated after review
(`workers.align.annotation.review.residual_error_after_review`, the evidence being the turns
shown by the end), and for `spot_check` also estimated with the spot check, with the standard
deviation the app gives that estimate (`spot_checked_error_sd`). Printed per size, reference
(the full one, and the corrected one where the benchmark states its targets: there the
review's outcome is also read on trusted turns only) and policy: the share of batches whose
estimate is within 1 point of the measured error, the median and root-mean-square distance
and the mean signed error (estimated minus measured), the median shares reviewed and left
wrong, the share left at most 3 % wrong, and the share that met the issue's target (at most
3 % wrong at most 40 % reviewed); for the spot-checked estimate also the median standard
deviation given with it and the share of batches it missed by at most one and two of it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from backend.simulation.review import PreAligned

ESTIMATES = ("plan", "after_review", "spot_checked")
REFERENCES = ("full_reference", "corrected_reference")
POLICIES = ("shown_only", "top_up", "follow_changes", "spot_check")


@dataclass(frozen=True)
class Meeting:
    labels: np.ndarray
    confidences: np.ndarray
    reference: np.ndarray
    """As an annotator can enter it (`reachable_gold`)."""
    trusted: np.ndarray
    run_correlation: float
    """The calibrating decision's (`LearnedDecision.run_correlation`)."""

    @property
    def pre_aligned(self) -> PreAligned:
        from backend.simulation.review import PreAligned

        return PreAligned(self.labels, self.confidences, self.run_correlation)


def meetings(which: str = "all", calibration: str = "prior") -> list[Meeting]:
    """The meetings of fold `which` ("a" or "b"), or all 22, pre-aligned as described above,
    or with `calibration="own"` as a project's own learned decision would
    (`bench.review_curve.two_fold_decided`)."""
    from backend.simulation.annotator import reachable_gold
    from workers.align.corpus import corrected_turns, load_public_meetings, meeting_ids
    from workers.align.folds import defaults_file, folds
    from workers.align.learning.prior import load_prior
    from workers.align.params import load_params
    from workers.align.pipeline import corpus_vectors, turn_evidence

    by_id = {meeting.id: meeting for meeting in load_public_meetings()}
    fold_a, fold_b = folds(meeting_ids())
    if calibration == "own":
        from bench.review_curve import two_fold_decided

        decided = two_fold_decided()
        wanted = {"all": fold_a + fold_b, "a": fold_a, "b": fold_b}[which]
        return [
            Meeting(
                labels=np.asarray(decided[i][0]),
                confidences=np.asarray(decided[i][1], dtype=np.float64),
                reference=np.asarray(reachable_gold(list(by_id[i].reference))),
                trusted=np.asarray(corrected_turns(by_id[i]), dtype=bool),
                run_correlation=decided[i][2],
            )
            for i in wanted
        ]
    scored = []
    chosen = {"all": ((fold_a, "b"), (fold_b, "a")), "a": ((fold_a, "b"),), "b": ((fold_b, "a"),)}
    for tested, other in chosen[which]:
        params = load_params(defaults_file(other, vectors="lexical"))
        prior = load_prior(other, "lexical")
        for meeting_id in tested:
            meeting = by_id[meeting_id]
            _, evidence = turn_evidence(meeting, params, corpus_vectors([meeting], params.vectors))
            labels, confidences = prior.decide(evidence)
            scored.append(
                Meeting(
                    labels=np.asarray(labels),
                    confidences=np.asarray(confidences, dtype=np.float64),
                    reference=np.asarray(reachable_gold(list(meeting.reference))),
                    trusted=np.asarray(corrected_turns(meeting), dtype=bool),
                    run_correlation=prior.run_correlation,
                )
            )
    return scored


@dataclass(frozen=True)
class Reviewed:
    """One document after review: the gold it leaves, the turns the review mode showed, the
    turns read, and its spot check's pool, draw and the labels before it (None without)."""

    gold: np.ndarray
    shown: np.ndarray
    read: np.ndarray
    spot_check: tuple[np.ndarray, np.ndarray, np.ndarray] | None


def reviewed(
    meeting: Meeting, threshold: float, policy: str, spot_check: tuple[float, np.random.Generator]
) -> Reviewed:
    """One document's review under `policy`, a spot check of (share, draws) included."""
    from backend.simulation.review import (
        reviewed_labels,
        shown_after_review,
        spot_checked_labels,
    )
    from workers.align.annotation.review import turns_to_review
    from workers.align.annotation.spot_check import draw_spot_checks

    pre_aligned = meeting.pre_aligned
    top_up = policy == "top_up"
    reference = meeting.reference.tolist()
    gold, read = reviewed_labels(
        pre_aligned,
        reference,
        threshold,
        top_up=top_up,
        follow_changes=policy in ("follow_changes", "spot_check"),
    )
    shown = (
        shown_after_review(pre_aligned, gold, read, threshold)
        if top_up
        else turns_to_review(meeting.confidences, threshold)
    )
    if policy != "spot_check":
        return Reviewed(np.asarray(gold), shown, read, None)
    share, draws = spot_check
    checked = draw_spot_checks(~read, share, draws)
    checked_gold, checked_read = spot_checked_labels(
        pre_aligned, reference, threshold, read, checked
    )
    return Reviewed(
        np.asarray(checked_gold), shown, checked_read, (~read, checked, np.asarray(gold))
    )


def batch_figures(
    batch: list[Meeting], policy: str, spot_check: tuple[float, np.random.Generator]
) -> dict[str, dict[str, float]]:
    """Per reference: reviewed, measured and each estimate, as shares of the turns."""
    from workers.align.annotation.review import (
        DEFAULT_RESIDUAL_ERROR_TARGET,
        ReviewedDocument,
        doubts_after_review,
        expected_left,
        threshold_for_residual_error,
        turns_to_review,
    )
    from workers.align.annotation.spot_check import (
        SpotCheckedDocument,
        residual_error_spot_checked,
        spot_checked_error_sd,
    )

    follows = policy in ("follow_changes", "spot_check")
    threshold = threshold_for_residual_error(
        [m.confidences for m in batch],
        DEFAULT_RESIDUAL_ERROR_TARGET,
        [m.pre_aligned.following(follows) for m in batch],
    )
    outcomes = [(meeting, reviewed(meeting, threshold, policy, spot_check)) for meeting in batch]
    figures = {}
    for reference in REFERENCES:
        sums = dict.fromkeys(("turns", "reviewed", "measured", "plan"), 0.0)
        documents = []
        checks = []
        for meeting, review in outcomes:
            gold, shown, read = review.gold, review.shown, review.read
            kept = (
                meeting.trusted
                if reference == "corrected_reference"
                else np.ones(len(meeting.labels), dtype=bool)
            )
            planned = turns_to_review(meeting.confidences, threshold)
            sums["turns"] += kept.sum()
            sums["reviewed"] += read[kept].sum()
            sums["measured"] += (gold != meeting.reference)[kept].sum()
            sums["plan"] += expected_left(
                meeting.confidences[kept], planned[kept], meeting.pre_aligned.following(follows)
            )
            documents.append(
                ReviewedDocument(
                    meeting.confidences[kept],
                    shown[kept],
                    read[kept],
                    (gold == meeting.labels)[kept],
                    meeting.pre_aligned.following(follows),
                )
            )
            if review.spot_check is not None:
                pool, checked, before = review.spot_check
                checks.append(
                    SpotCheckedDocument.from_labels(
                        pool, checked, before, gold, meeting.confidences
                    ).only(kept)
                )
        after = sum(float(doubts.sum()) for doubts in doubts_after_review(documents))
        figures[reference] = {
            "reviewed": float(sums["reviewed"] / sums["turns"]),
            "measured": float(sums["measured"] / sums["turns"]),
            "plan": float(sums["plan"] / sums["turns"]),
            "after_review": after / float(sums["turns"]),
        }
        if checks:
            figures[reference]["spot_checked"] = residual_error_spot_checked(
                after, int(sums["turns"]), checks
            )
            figures[reference]["spot_checked_sd"] = spot_checked_error_sd(
                int(sums["turns"]), checks
            )
    return figures


def summary(batches: list[dict[str, float]]) -> dict[str, Any]:
    from backend.simulation.review import BAR_RESIDUAL_ERROR, BAR_REVIEWED_SHARE

    low_enough = np.array([b["measured"] <= BAR_RESIDUAL_ERROR + 1e-12 for b in batches])
    read_little = np.array([b["reviewed"] <= BAR_REVIEWED_SHARE + 1e-12 for b in batches])
    result: dict[str, Any] = {
        "batches": len(batches),
        "median_reviewed": round(statistics.median(b["reviewed"] for b in batches), 4),
        "median_measured": round(statistics.median(b["measured"] for b in batches), 4),
        "at_most_3_percent_left": round(float(low_enough.mean()), 3),
        "target_met": round(float((low_enough & read_little).mean()), 3),
    }
    for estimate in (estimate for estimate in ESTIMATES if estimate in batches[0]):
        errors = np.array([b[estimate] - b["measured"] for b in batches])
        result[estimate] = {
            "within_1_point": round(float(np.mean(np.abs(errors) <= 0.01 + 1e-12)), 3),
            "median_off_by": round(float(np.median(np.abs(errors))), 4),
            "rms_off_by": round(float(np.sqrt(np.mean(errors**2))), 4),
            "mean_signed_error": round(float(errors.mean()), 4),
        }
    if "spot_checked_sd" in batches[0]:
        misses = np.array(
            [abs(b["spot_checked"] - b["measured"]) / b["spot_checked_sd"] for b in batches]
        )
        result["spot_checked"] |= {
            "median_sd": round(statistics.median(b["spot_checked_sd"] for b in batches), 4),
            "within_1_sd": round(float(np.mean(misses <= 1)), 3),
            "within_2_sd": round(float(np.mean(misses <= 2)), 3),
        }
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="4,6", help="batch sizes, comma-separated")
    parser.add_argument("--draws", type=int, default=200, help="batches drawn per size")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--meetings", choices=("all", "a", "b"), default="all", help="draw from a fold, or all"
    )
    parser.add_argument(
        "--calibration",
        choices=("prior", "own"),
        default="prior",
        help="a new project's lexical prior, or a project's own learned decision (two-fold)",
    )
    parser.add_argument(
        "--spot-check",
        type=float,
        default=None,
        metavar="SHARE",
        help="share of the turns left unread the spot_check policy reads "
        "(default: workers.align.annotation.spot_check.SPOT_CHECK_SHARE)",
    )
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backend.settings")
    import django

    django.setup()
    from workers.align.annotation.spot_check import SPOT_CHECK_SHARE

    scored = meetings(args.meetings, args.calibration)
    rng = np.random.default_rng(args.seed)
    share = SPOT_CHECK_SHARE if args.spot_check is None else args.spot_check
    report: dict[str, Any] = {
        "meetings": args.meetings,
        "calibration": args.calibration,
        "spot_check": share,
    }
    for size in (int(text) for text in args.sizes.split(",")):
        drawn = [
            [scored[i] for i in rng.choice(len(scored), size, replace=False)]
            for _ in range(args.draws)
        ]
        spot_check = (share, np.random.default_rng([args.seed, size]))
        by_policy = {
            policy: [batch_figures(batch, policy, spot_check) for batch in drawn]
            for policy in POLICIES
        }
        report[f"batches_of_{size}"] = {
            reference: {
                policy: summary([b[reference] for b in by_policy[policy]]) for policy in POLICIES
            }
            for reference in REFERENCES
        }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
