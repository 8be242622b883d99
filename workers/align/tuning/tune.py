"""Grid search with the paper's scheme: many settings on a few meetings, the best share of them
on more meetings, and so on.

Work is organised so that the expensive parts run once: meetings are scored once per scoring
configuration, the path is searched once per path configuration, and abstention settings are
tried on the cached path outcome. `evaluate_grid_slice` is a pure function of its inputs, so a
Celery task can evaluate one slice of the settings; `merge_slices` combines slice results.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

import numpy as np
from gensim.models import KeyedVectors

from workers.align.baselines.diagonal import DiagonalSettings
from workers.align.confidence import Abstention
from workers.align.document_model import Meeting
from workers.align.layout import sentence_layout
from workers.align.metrics import (
    MeetingScores,
    Summary,
    merge_subturns,
    micro_average,
    score_meeting,
)
from workers.align.params import ALIGNERS, AlignmentParams
from workers.align.paths.blocks import ScoreRows
from workers.align.pipeline import (
    decide,
    hmm_outcome,
    meeting_scorer,
    path_outcome,
    segment_view,
    talk_decoding,
    turn_quantiles,
    whole_matrix,
)
from workers.align.scoring.similarity import ScoringParams
from workers.align.setting_fields import SettingsError, in_words
from workers.align.talks.hmm import HmmSettings
from workers.align.talks.hmm_alignment import TalkDecoding

GRIDS_DIRECTORY = Path(__file__).parents[1] / "defaults"
GRIDS = {"default": "grid.json", "paper": "paper-grid.json", "hmm": "hmm-grid.json"}
"""Grids by name: `default`, the one the shipped defaults were tuned with (turn path),
`paper`, the paper's path with abstention, and `hmm`, TalkSumm's HMM around its published
transition values. A grid maps `section.name` settings (or `aligner`)
to the values to try; names joined by commas vary together (window size and overlap)."""


def named_grid(name: str) -> dict[str, list[Any]]:
    if name not in GRIDS:
        raise ValueError(f"There is no grid {name!r}; choose {in_words(GRIDS, 'or')}.")
    return json.loads((GRIDS_DIRECTORY / GRIDS[name]).read_text(encoding="utf-8"))


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
        return summary.segment_accuracy + summary.word_accuracy - summary.windowdiff_penalty
    if kind == "turns":
        return summary.segment_accuracy
    raise ValueError(f"unknown objective {kind!r}; expected one of {list(OBJECTIVES)}")


def expand_grid(base: AlignmentParams, grid: Mapping[str, Sequence[Any]]) -> list[AlignmentParams]:
    """Every combination of the grid's values applied to `base`, without repeats. A grid that
    tries several aligners may name each one's settings: they apply to that aligner's
    combinations only."""
    names = list(grid)
    keys = [key for name in names for key in name.split(",")]
    aligners = set(grid.get("aligner", [base.aligner]))
    for key in keys:
        section = key.partition(".")[0]
        if section in ALIGNERS and section not in aligners:
            raise SettingsError(
                f"The grid sets {key} but tries no {section} aligner "
                f"(it tries {in_words(sorted(map(str, aligners)))})."
            )
    for name in names:
        joined = name.split(",")
        if len(joined) > 1:
            for value in grid[name]:
                if not isinstance(value, list | tuple) or len(value) != len(joined):
                    raise SettingsError(
                        f"The grid joins {in_words(joined)}: each of its values must be a list "
                        f"of {len(joined)} values, one for each, got {value!r}."
                    )
    settings = []
    for values in itertools.product(*(grid[name] for name in names)):
        changes: dict[str, Any] = {}
        for name, value in zip(names, values, strict=True):
            if "," in name:
                changes.update(zip(name.split(","), value, strict=True))
            else:
                changes[name] = value
        aligner = changes.get("aligner", base.aligner)
        own = {
            key: value
            for key, value in changes.items()
            if key.partition(".")[0] not in ALIGNERS or key.startswith(f"{aligner}.")
        }
        settings.append(base.with_changes(own))
    return list(dict.fromkeys(settings))


def _path_key(params: AlignmentParams) -> AlignmentParams:
    return replace(params, abstention=Abstention())


def evaluate_grid_slice(
    meetings: Sequence[Meeting],
    settings: Sequence[AlignmentParams],
    vectors: KeyedVectors | None,
    progress: Callable[[int], None] | None = None,
) -> list[SettingResult]:
    """Score every setting on every meeting (meetings need reference labels). The diagonal
    reads no similarities: it is scored on zeros, as `align_meeting` aligns with it, and
    needs no vectors; the HMM reads words, not sentence similarities."""
    by_scoring: dict[ScoringParams | None, list[AlignmentParams]] = {}
    for params in sorted(settings, key=lambda p: repr(p.scoring)):
        reads_scores = not isinstance(params.path, DiagonalSettings | HmmSettings)
        by_scoring.setdefault(params.scoring if reads_scores else None, []).append(params)
    collected: dict[AlignmentParams, list[tuple[str, MeetingScores]]] = {p: [] for p in settings}
    for meeting in meetings:
        if meeting.reference is None:
            raise ValueError(f"meeting {meeting.id} has no reference labels to tune on")
        layout = sentence_layout(meeting)
        turn_ids = [turn.id for turn in meeting.transcript.turns]
        for scoring, group in by_scoring.items():
            scores: ScoreRows | np.ndarray = (
                meeting_scorer(layout, scoring, vectors)
                if scoring is not None
                else np.zeros(
                    (len(layout.transcript_sentences), len(layout.report_sentences)), np.float32
                )
            )
            by_path: dict[AlignmentParams, list[AlignmentParams]] = {}
            for params in group:
                by_path.setdefault(_path_key(params), []).append(params)
            if any(params.aligner != "turns" for params in by_path):
                scores = whole_matrix(scores)
            view = None
            if any(params.aligner == "turns" for params in by_path):
                view = segment_view(scores, layout, turn_quantiles(p.path for p in by_path))
            decodings: dict[AlignmentParams, TalkDecoding] = {}
            for path_params, variants in by_path.items():
                if isinstance(path_params.path, HmmSettings):
                    decoded = replace(path_params, path=replace(path_params.path, min_share=0.0))
                    if decoded not in decodings:
                        decodings[decoded] = talk_decoding(meeting, decoded, vectors)
                    outcome = hmm_outcome(meeting, path_params, vectors, decodings[decoded])
                else:
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
    ordered = sorted(settings, key=lambda params: repr(params.scoring))
    size = math.ceil(len(ordered) / count)
    return ordered[index * size : (index + 1) * size]


@dataclass(frozen=True)
class Stage:
    """Evaluate the surviving settings on the first `documents` documents (meetings), then
    keep the best `keep` share of them; the last stage keeps 0: it ranks, it does not cut.
    The web application stores a run's stages as these fields."""

    documents: int
    keep: float

    def __post_init__(self) -> None:
        if self.documents < 1 or not 0 <= self.keep < 1:
            raise ValueError(
                f"a stage evaluates on documents >= 1 and keeps a share in [0, 1), got {self}"
            )

    def survivors(self, ranked: int) -> int:
        """How many of `ranked` settings go on to the next stage (at least one)."""
        return max(1, math.ceil(self.keep * ranked))

    @staticmethod
    def schedule(stages: Sequence[Stage]) -> tuple[Stage, ...]:
        """The stages, checked to end with a ranking stage."""
        if not stages or stages[-1].keep != 0:
            raise ValueError("the last stage must keep 0: it ranks, it does not cut")
        return tuple(stages)


def every_setting_on_all(count: int) -> tuple[Stage, ...]:
    """One stage: every setting on all `count` documents, how the shipped defaults were made."""
    return (Stage(documents=count, keep=0.0),)


def planned_evaluations(stages: Sequence[Stage], settings: int, documents: int) -> int:
    """The setting-document evaluations `successive_halving` makes (what its `progress`
    adds up to) with `settings` settings on `documents` documents."""
    total, alive, evaluated = 0, settings, 0
    for stage in stages:
        target = min(stage.documents, documents)
        total += alive * (target - evaluated)
        evaluated = target
        if stage.keep > 0:
            alive = stage.survivors(alive)
    return total


def parse_stages(text: str) -> tuple[Stage, ...]:
    """'3:0.1,6:0.2,11:0' -> stages; the CLI's spelling of a halving schedule."""
    try:
        stages = [
            Stage(documents=int(documents), keep=float(keep or 0))
            for documents, _, keep in (part.partition(":") for part in text.split(","))
        ]
        return Stage.schedule(stages)
    except ValueError as error:
        raise ValueError(f"stages {text!r}: {error}") from error


def successive_halving(
    meetings: Sequence[Meeting],
    settings: Sequence[AlignmentParams],
    vectors: KeyedVectors | None,
    stages: Sequence[Stage] | None = None,
    progress: Callable[[int], None] | None = None,
    kind: Objective = "balanced",
) -> list[SettingResult]:
    """The paper's grid search; returns the last stage's results, best first.

    Each stage adds meetings (in the given order) to those already evaluated, so a surviving
    setting is never re-run on a meeting it has seen. Without stages, every setting is
    evaluated on every meeting.
    """
    stages = Stage.schedule(stages or every_setting_on_all(len(meetings)))
    survivors = list(settings)
    results: dict[AlignmentParams, SettingResult] = {}
    evaluated = 0
    ranked: list[SettingResult] = []
    for stage in stages:
        target = min(stage.documents, len(meetings))
        new_meetings = meetings[evaluated:target]
        fresh = (
            evaluate_grid_slice(new_meetings, survivors, vectors, progress) if new_meetings else []
        )
        ranked = merge_slices([[results[p] for p in survivors if p in results], fresh], kind)
        results = {result.params: result for result in ranked}
        evaluated = target
        if stage.keep > 0:
            survivors = [result.params for result in ranked[: stage.survivors(len(ranked))]]
    return ranked
