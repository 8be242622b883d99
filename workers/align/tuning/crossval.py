"""K-fold cross-validation of the tuning procedure, by document.

Each fold's documents are aligned with parameters tuned on the other folds only, so no
figure comes from parameters that saw the document it scores (nor, when the procedure learns
a decision from the gold, from a model that saw it); the folds and their seed are recorded
beside the figures so that anyone can draw them again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from workers.align.document_model import Meeting
from workers.align.folds import cv_folds
from workers.align.params import AlignmentParams
from workers.align.pipeline import AlignmentResult
from workers.align.tuning.tune import SettingResult

Tuner = Callable[[Sequence[Meeting]], SettingResult]
FoldDecider = Callable[
    [Sequence[Meeting], Sequence[Meeting], AlignmentParams],
    tuple[dict[str, AlignmentResult], dict[str, Any]],
]
"""(training meetings, test meetings, the parameters tuned on the training ones) -> each test
meeting's result, and what the fold learned beside the parameters (recorded with it)."""


@dataclass(frozen=True)
class Fold:
    test: list[str]
    train: list[str]
    best: SettingResult
    learned: dict[str, Any]

    def as_dict(self) -> dict[str, Any]:
        return {
            "test": self.test,
            "tuned_on": self.train,
            "params": self.best.params.to_dict(),
            "training_summary": self.best.summary.as_dict(),
            **self.learned,
        }


def cross_validate(
    meetings: Sequence[Meeting], k: int, seed: int, tune: Tuner, decide: FoldDecider
) -> tuple[list[tuple[Meeting, AlignmentResult]], list[Fold]]:
    """Every meeting aligned once, with the parameters `tune` chose on the other folds (and
    whatever `decide` learns there, from the other folds' gold only)."""
    by_id = {meeting.id: meeting for meeting in meetings}
    results: dict[str, AlignmentResult] = {}
    folds = []
    for test in cv_folds(list(by_id), k, seed):
        train = [meeting_id for meeting_id in sorted(by_id) if meeting_id not in test]
        training = [by_id[meeting_id] for meeting_id in train]
        best = tune(training)
        decided, learned = decide(training, [by_id[m] for m in test], best.params)
        results.update(decided)
        folds.append(Fold(test=test, train=train, best=best, learned=learned))
    return [(by_id[meeting_id], results[meeting_id]) for meeting_id in sorted(by_id)], folds
