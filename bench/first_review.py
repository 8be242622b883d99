"""Review of a new project's first pre-alignment, as JSON: the turn path with the engine's own
confidence against the shipped lexical prior's decision.

    python -m bench.first_review

A new project's first batch is pre-aligned with lexical vectors and the lexical defaults
(docs/align-engine.md, First contact), before any gold can calibrate a confidence. Each
public_meetings meeting is aligned that way as a one-document project, cross-fitted: with the
lexical parameters tuned on the other fold, then twice: the path's labels with the engine's
confidence, and the labels and calibrated confidence of the lexical prior fitted on that other
fold (`workers.align.learning.prior`, whose corrections change some labels), what a new project
now gets. Pooled over the 22 meetings, and per tested fold, on the full reference and on the
corrected one (without the turns whose reference repeats the uncorrected pre-alignment, where
the benchmark states its targets): accuracy, calibration error, AUROC, and review under
`auto`'s threshold (2 %), 0.8 and 0.9: turns shown, wrong labels left (measured) and
estimated.
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from bench.prior_against_little_gold import Scored, figures
from workers.align.corpus import corrected_turns, load_public_meetings, meeting_ids
from workers.align.folds import defaults_file, folds
from workers.align.learning.prior import load_prior
from workers.align.params import load_params
from workers.align.pipeline import corpus_vectors, turn_evidence

CONFIDENCES = ("engine", "lexical_prior")
REFERENCES = ("full_reference", "corrected_reference")
POOLS = ("all", "fold_a", "fold_b")


def scored_meetings() -> dict[tuple[str, str, str], list[Scored]]:
    """Per (confidence, reference, pool), each meeting's labels, confidences and reference."""
    meetings = {meeting.id: meeting for meeting in load_public_meetings()}
    fold_a, fold_b = folds(meeting_ids())
    scored: dict[tuple[str, str, str], list[Scored]] = {}
    for tested, other, tested_fold in (("fold_a", "b", fold_a), ("fold_b", "a", fold_b)):
        params = load_params(defaults_file(other, vectors="lexical"))
        prior = load_prior(other, "lexical")
        for meeting_id in tested_fold:
            meeting = meetings[meeting_id]
            result, evidence = turn_evidence(
                meeting, params, corpus_vectors([meeting], params.vectors)
            )
            decided = prior.decide(evidence)
            reference = np.asarray(meeting.reference)
            kept = corrected_turns(meeting)
            for name, (labels, confidence) in zip(
                CONFIDENCES, ((result.labels, result.confidence), decided), strict=True
            ):
                for pool in ("all", tested):
                    scored.setdefault((name, "full_reference", pool), []).append(
                        (labels, confidence, reference)
                    )
                    scored.setdefault((name, "corrected_reference", pool), []).append(
                        (labels[kept], confidence[kept], reference[kept])
                    )
    return scored


def main() -> None:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()
    scored = scored_meetings()
    print(
        json.dumps(
            {
                reference: {
                    pool: {name: figures(scored[name, reference, pool]) for name in CONFIDENCES}
                    for pool in POOLS
                }
                for reference in REFERENCES
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
