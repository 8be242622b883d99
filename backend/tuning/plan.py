"""The pure part of a tuning run: its stages, how a stage is cut into slices, and how slice
results travel through the database. No writes here, so a plan can be recomputed at will."""

import math
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from workers.align.metrics import MeetingScores
from workers.align.params import AlignmentParams
from workers.align.tuning import tune

FIRST_ROUND_DOCUMENTS = 3
FIRST_ROUND_KEEP = 0.1
SLICES_PER_STAGE = 16
"""Enough tasks per stage for every worker process to stay busy while the stage's documents
differ tenfold in length; each slice scores its documents once per scoring configuration."""
MAX_SETTINGS = 5000
GRID_TOO_LARGE = (
    f"The grid spans more than {MAX_SETTINGS} settings (the product of its lists' lengths); "
    f"at most {MAX_SETTINGS} are allowed."
)


def grid_too_large(grid: dict[str, list[Any]]) -> bool:
    """Whether the grid spans more than MAX_SETTINGS combinations, answered from its lists'
    lengths alone (before expanding it), so a 500-byte grid naming 10^12 settings is refused
    as fast as one naming two."""
    combinations = 1
    for values in grid.values():
        combinations *= max(1, len(values))
        if combinations > MAX_SETTINGS:
            return True
    return False


def default_stages(gold_count: int) -> tuple[tune.Stage, ...]:
    """The paper's two rounds: every setting on a few gold documents, then the best tenth on
    all of them; one round when there are only a few gold documents."""
    if gold_count <= FIRST_ROUND_DOCUMENTS:
        return tune.every_setting_on_all(gold_count)
    return (
        tune.Stage(documents=FIRST_ROUND_DOCUMENTS, keep=FIRST_ROUND_KEEP),
        tune.Stage(documents=gold_count, keep=0.0),
    )


def stored_stages(stages: Sequence[tune.Stage]) -> list[dict[str, Any]]:
    """A run's stages as its `stages` field keeps them (the API shows the same)."""
    return [asdict(stage) for stage in stages]


def run_stages(stored: list[dict[str, Any]]) -> tuple[tune.Stage, ...]:
    return tuple(tune.Stage(**stage) for stage in stored)


def stage_documents(stages: Sequence[tune.Stage], stage: int, gold_ids: list[int]) -> list[int]:
    """The gold documents a stage adds to those the earlier stages evaluated."""
    start = min(stages[stage - 1].documents, len(gold_ids)) if stage else 0
    return gold_ids[start : min(stages[stage].documents, len(gold_ids))]


def cut_stage(
    documents: list[int], candidates: dict[int, AlignmentParams]
) -> list[tuple[list[int], list[int]]]:
    """(documents, candidate indices) per slice: one document per slice when a stage has
    many, else each document's candidates cut (by scoring configuration, as the engine's
    `slice_settings` does) into enough pieces to keep SLICES_PER_STAGE tasks."""
    if not documents or not candidates:
        return []
    index_of = {params: index for index, params in candidates.items()}
    pieces = max(1, math.ceil(SLICES_PER_STAGE / len(documents)))
    settings = list(candidates.values())
    chunks = [tune.slice_settings(settings, piece, pieces) for piece in range(pieces)]
    return [
        ([document], sorted(index_of[params] for params in chunk))
        for document in documents
        for chunk in chunks
        if chunk
    ]


def encode_results(results: list[tune.SettingResult], index_of: dict) -> list[dict[str, Any]]:
    return [
        {
            "candidate": index_of[result.params],
            "per_document": [[meeting, asdict(scores)] for meeting, scores in result.per_meeting],
        }
        for result in results
    ]


def decode_results(
    encoded: list[dict[str, Any]], params_of: dict[int, AlignmentParams]
) -> list[tune.SettingResult]:
    return [
        tune.SettingResult(
            params_of[item["candidate"]],
            tuple((meeting, MeetingScores(**scores)) for meeting, scores in item["per_document"]),
        )
        for item in encoded
        if item["candidate"] in params_of
    ]


def rank(
    slices: list[list[tune.SettingResult]],
    index_of: dict[AlignmentParams, int],
    kind: tune.Objective,
) -> list[tune.SettingResult]:
    """The engine's merge, best objective first; ties go to the earlier grid position, so the
    ranking never depends on which worker finished first."""
    merged = tune.merge_slices(slices, kind)
    return sorted(
        merged, key=lambda result: (-tune.objective(result.summary, kind), index_of[result.params])
    )
