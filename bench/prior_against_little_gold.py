"""The shipped prior calibration against a project's own, fitted on little gold, as JSON.

    python -m bench.prior_against_little_gold [--sizes 5,8] [--draws 3]

For each fold T of public_meetings (and O the other), the meetings of T are pre-aligned with
the parameters tuned on O, and k of them (seeded draws) are a project's gold: the engine's
learned decision is fitted on them (`fit_decision`, as a tuning run fits it), and the other
11 - k meetings of T are scored three ways, none by a model that saw them: the project's
decision; the shipped prior fitted on O (`workers.align.learning.prior`: the path's labels,
the prior's calibration); and the project's labels with their confidence mixed from the two,
each gold document counting the same (weight k / (k + 11) on the project's, fixed before
measuring). Pooled over the draws and both folds: pre-alignment accuracy, calibration error
and AUROC against the reference, and review under `auto`'s threshold (2 %), 0.8 and 0.9:
turns shown, wrong labels left (measured), estimated. This is how docs/review.md chose to ship
the prior alone rather than mixing it with the project's calibration.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

import numpy as np

from workers.align.annotation.review import (
    DEFAULT_RESIDUAL_ERROR_TARGET,
    plan_review,
    threshold_for_residual_error,
    turns_to_review,
)
from workers.align.corpus import load_public_meetings, meeting_ids
from workers.align.folds import FOLD_SIZE, defaults_file, folds
from workers.align.learning.prior import load_prior
from workers.align.learning.statistics import auroc, expected_calibration_error
from workers.align.learning.turn_decision import fit_decision
from workers.align.params import load_params
from workers.align.pipeline import corpus_vectors, turn_evidence

Scored = tuple[np.ndarray, np.ndarray, np.ndarray]
"""One document's labels, confidences and reference."""
WAYS = ("project", "prior", "mixed")


def scored_documents(sizes: list[int], draws: int) -> dict[tuple[int, str], list[Scored]]:
    meetings = {meeting.id: meeting for meeting in load_public_meetings()}
    fold_a, fold_b = folds(meeting_ids())
    scored: dict[tuple[int, str], list[Scored]] = {}
    for other, tested_fold in (("b", fold_a), ("a", fold_b)):
        params = load_params(defaults_file(other))
        vectors = corpus_vectors(list(meetings.values()), params.vectors)
        evidence = {i: turn_evidence(meetings[i], params, vectors)[1] for i in tested_fold}
        prior = load_prior(other)
        for size in sizes:
            weight = size / (size + FOLD_SIZE)
            for draw in range(draws):
                order = np.random.default_rng(draw).permutation(len(tested_fold))
                gold = [tested_fold[j] for j in order[:size]]
                project = fit_decision(
                    [(evidence[i], np.asarray(meetings[i].reference)) for i in gold]
                )
                for j in order[size:]:
                    meeting_id = tested_fold[j]
                    reference = np.asarray(meetings[meeting_id].reference)
                    labels, own = project.decide(evidence[meeting_id])
                    path_labels, prior_confidence = prior.decide(evidence[meeting_id])
                    mixed = weight * own + (1 - weight) * prior.confidence(
                        evidence[meeting_id], labels
                    )
                    for way, way_labels, confidence in (
                        ("project", labels, own),
                        ("prior", path_labels, prior_confidence),
                        ("mixed", labels, mixed),
                    ):
                        scored.setdefault((size, way), []).append(
                            (way_labels, confidence, reference)
                        )
    return scored


def review_at(documents: list[Scored], threshold: float) -> dict[str, float]:
    labels = [labels for labels, _, _ in documents]
    confidences = [confidence for _, confidence, _ in documents]
    plan = plan_review(confidences, threshold)
    turns = sum(len(label) for label in labels)
    wrong_left = sum(
        int(((label != reference) & ~turns_to_review(confidence, threshold)).sum())
        for label, confidence, reference in documents
    )
    return {
        "threshold": round(threshold, 3),
        "reviewed_share": round(plan.shown_share, 3),
        "residual_error": round(wrong_left / turns, 4),
        "estimated_residual_error": round(plan.estimated_residual_error, 4),
    }


def figures(documents: list[Scored]) -> dict[str, Any]:
    right = np.concatenate([label == reference for label, _, reference in documents])
    confidence = np.concatenate([confidence for _, confidence, _ in documents])
    automatic = threshold_for_residual_error(
        [c for _, c, _ in documents], DEFAULT_RESIDUAL_ERROR_TARGET
    )
    return {
        "documents": len(documents),
        "turns": len(right),
        "pre_alignment_accuracy": round(float(right.mean()), 3),
        "expected_calibration_error": round(expected_calibration_error(confidence, right), 3),
        "auroc": round(auroc(confidence, right), 3),
        "auto": review_at(documents, automatic),
        "at_0.8": review_at(documents, 0.8),
        "at_0.9": review_at(documents, 0.9),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="5,8", help="Gold documents per draw (at most 10).")
    parser.add_argument("--draws", type=int, default=3)
    options = parser.parse_args()
    sizes = [int(size) for size in options.sizes.split(",")]
    scored = scored_documents(sizes, options.draws)
    print(
        json.dumps(
            {
                f"{size} gold documents": {way: figures(scored[size, way]) for way in WAYS}
                for size in sizes
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
