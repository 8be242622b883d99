"""Grid search with the paper's scheme: many settings on a few meetings, the best share of them
on more meetings, and so on.

Work is organised so that the expensive parts run once: meetings are scored once per scoring
configuration, the path is searched once per path configuration, and abstention settings are
tried on the cached path outcome. `evaluate_grid_slice` is a pure function of its inputs, so a
Celery task can evaluate one slice of the settings; `merge_slices` combines slice results.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np
from gensim.models import KeyedVectors

from workers.align.layout import sentence_layout
from workers.align.metrics import (
    MeetingScores,
    Summary,
    merge_subturns,
    micro_average,
    score_meeting,
)
from workers.align.model import Meeting
from workers.align.params import AlignmentParams
from workers.align.pipeline import decide, meeting_scores, path_outcome, segment_view
from workers.align.scoring.similarity import ScoringParams

DEFAULT_GRID: dict[str, list[Any]] = {
    "scoring__normalisation": ["none", "rows", "both"],
    "scoring__window_size,scoring__window_overlap": [(1, 0), (2, 1)],
    "scoring__reduction": ["sum", "product"],
    "power": [1.0, 2.0, 4.0],
    "transcript_decay": [0.0, 1e-4],
    "report_decay": [0.0, 1e-4],
    "min_words": [0, 3, 5],
    "min_support": [None, 0.3, 0.5, 0.7, 1.0],
}
"""Names joined by commas vary together (window size and overlap)."""


@dataclass(frozen=True)
class SettingResult:
    params: AlignmentParams
    per_meeting: tuple[tuple[str, MeetingScores], ...]

    @property
    def summary(self) -> Summary:
        return micro_average([scores for _, scores in self.per_meeting])


Objective = Literal["balanced", "turns"]
OBJECTIVES: tuple[Objective, ...] = ("balanced", "turns")


def objective(summary: Summary, kind: Objective = "balanced") -> float:
    """One number to rank settings, higher is better.

    "balanced" weighs the benchmark's three figures equally (both accuracies up, WindowDiff
    down): the engine's shipped defaults are tuned for the paper's table. "turns" is the share
    of gold turns the pre-alignment gets right, which is the share an annotator leaves
    unchanged: the bootstrap loop's own measure of the effort the next round will cost.
    """
    if kind == "balanced":
        return summary.segment_accuracy + summary.word_accuracy - summary.windowdiff
    if kind == "turns":
        return summary.segment_accuracy
    raise ValueError(f"unknown objective {kind!r}; expected one of {list(OBJECTIVES)}")


def expand_grid(base: AlignmentParams, grid: Mapping[str, Sequence[Any]]) -> list[AlignmentParams]:
    names = list(grid)
    settings = []
    for values in itertools.product(*(grid[name] for name in names)):
        changes: dict[str, Any] = {}
        for name, value in zip(names, values, strict=True):
            if "," in name:
                changes.update(zip(name.split(","), value, strict=True))
            else:
                changes[name] = value
        settings.append(base.with_changes(**changes))
    return list(dict.fromkeys(settings))


def _path_key(params: AlignmentParams) -> AlignmentParams:
    return replace(params, min_words=0, min_support=None)


def evaluate_grid_slice(
    meetings: Sequence[Meeting],
    settings: Sequence[AlignmentParams],
    vectors: KeyedVectors | None,
    progress: Callable[[int], None] | None = None,
) -> list[SettingResult]:
    """Score every setting on every meeting (meetings need reference labels)."""
    by_scoring: dict[ScoringParams, list[AlignmentParams]] = {}
    for params in sorted(settings, key=lambda p: repr(p.scoring.without_normalisation())):
        by_scoring.setdefault(params.scoring, []).append(params)
    collected: dict[AlignmentParams, list[tuple[str, MeetingScores]]] = {p: [] for p in settings}
    for meeting in meetings:
        if meeting.reference is None:
            raise ValueError(f"meeting {meeting.id} has no reference labels to tune on")
        layout = sentence_layout(meeting)
        turn_ids = [turn.id for turn in meeting.transcript.turns]
        raw_scores: dict[ScoringParams, np.ndarray] = {}
        for scoring, group in by_scoring.items():
            scores = raw_scores.get(scoring.without_normalisation())
            if scores is None:
                scores = meeting_scores(layout, scoring, vectors)
                raw_scores = {scoring.without_normalisation(): scores}
            by_path: dict[AlignmentParams, list[AlignmentParams]] = {}
            for params in group:
                by_path.setdefault(_path_key(params), []).append(params)
            view = None
            if any(params.aligner == "turns" for params in by_path):
                view = segment_view(scores, layout)
            for path_params, variants in by_path.items():
                outcome = path_outcome(scores, layout, path_params, view)
                for params in variants:
                    labels = decide(outcome, layout, params).labels
                    merged = merge_subturns(
                        turn_ids, meeting.reference, labels, layout.turn_word_counts
                    )
                    collected[params].append((meeting.id, score_meeting(*merged)))
                if progress is not None:
                    progress(len(variants))
    return [SettingResult(params, tuple(collected[params])) for params in settings]


def merge_slices(
    slices: Iterable[Sequence[SettingResult]], kind: Objective = "balanced"
) -> list[SettingResult]:
    """Combine slice results (over settings and/or meetings), best objective first."""
    merged: dict[AlignmentParams, list[tuple[str, MeetingScores]]] = {}
    for results in slices:
        for result in results:
            known = merged.setdefault(result.params, [])
            seen = {meeting_id for meeting_id, _ in known}
            known.extend(item for item in result.per_meeting if item[0] not in seen)
    ranked = [SettingResult(params, tuple(sorted(items))) for params, items in merged.items()]
    return sorted(ranked, key=lambda result: objective(result.summary, kind), reverse=True)


def slice_settings(
    settings: Sequence[AlignmentParams], index: int, count: int
) -> list[AlignmentParams]:
    """The index-th of `count` slices, kept whole per scoring configuration when possible so a
    slice scores each meeting as few times as it can."""
    ordered = sorted(settings, key=lambda params: repr(params.scoring.without_normalisation()))
    size = math.ceil(len(ordered) / count)
    return ordered[index * size : (index + 1) * size]


@dataclass(frozen=True)
class Stage:
    """Evaluate the surviving settings on `meetings` meetings, then keep `keep` of them."""

    meetings: int
    keep: float


DEFAULT_STAGES = (
    Stage(meetings=3, keep=0.1),
    Stage(meetings=6, keep=0.2),
    Stage(meetings=11, keep=0.0),
)


def parse_stages(text: str) -> tuple[Stage, ...]:
    """'3:0.1,6:0.2,11:0' -> stages; the CLI's spelling of a halving schedule."""
    stages = []
    for part in text.split(","):
        meetings, _, keep = part.partition(":")
        stages.append(Stage(meetings=int(meetings), keep=float(keep or 0)))
    if not stages or stages[-1].keep != 0:
        raise ValueError(f"the last stage must keep everything it ranks (keep 0), got {text!r}")
    return tuple(stages)


def successive_halving(
    meetings: Sequence[Meeting],
    settings: Sequence[AlignmentParams],
    vectors: KeyedVectors | None,
    stages: Sequence[Stage] = DEFAULT_STAGES,
    progress: Callable[[int], None] | None = None,
    kind: Objective = "balanced",
) -> list[SettingResult]:
    """The paper's grid search; returns the last stage's results, best first.

    Each stage adds meetings (in the given order) to those already evaluated, so a surviving
    setting is never re-run on a meeting it has seen.
    """
    survivors = list(settings)
    results: dict[AlignmentParams, SettingResult] = {}
    evaluated = 0
    ranked: list[SettingResult] = []
    for stage in stages:
        target = min(stage.meetings, len(meetings))
        new_meetings = meetings[evaluated:target]
        fresh = (
            evaluate_grid_slice(new_meetings, survivors, vectors, progress) if new_meetings else []
        )
        ranked = merge_slices([[results[p] for p in survivors if p in results], fresh], kind)
        results = {result.params: result for result in ranked}
        evaluated = target
        if stage.keep > 0:
            survivors = [r.params for r in ranked[: max(1, math.ceil(stage.keep * len(ranked)))]]
    return ranked
