"""The two-fold protocol for public_meetings and the shipped, cross-fitted defaults.

Meetings sorted by id are split into fold A (first 11) and fold B (last 11). The parameters
shipped in defaults/tuned-on-fold-a.json were tuned on fold A only and are the ones used for
fold B meetings; defaults/tuned-on-fold-b.json, tuned on fold B only, are used for fold A. So a
reported public_meetings figure never comes from parameters that saw its meeting's scores.
Meetings from elsewhere (user uploads) get the fold-A parameters.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from workers.align.params import AlignmentParams, load_params

FOLD_SIZE = 11


def folds(meeting_ids: list[str]) -> tuple[list[str], list[str]]:
    ordered = sorted(meeting_ids)
    return ordered[:FOLD_SIZE], ordered[FOLD_SIZE:]


def defaults_file(tuned_on: str) -> Path:
    return Path(
        str(resources.files("workers.align") / "defaults" / f"tuned-on-fold-{tuned_on}.json")
    )


def shipped_defaults(meeting_id: str, corpus_ids: list[str]) -> AlignmentParams:
    """Parameters for one meeting that were tuned without looking at that meeting."""
    fold_a, _ = folds(corpus_ids)
    return load_params(defaults_file("b" if meeting_id in fold_a else "a"))
