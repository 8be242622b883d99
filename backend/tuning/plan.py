"""The pure part of a tuning run: its stages, how a stage is cut into slices, and how slice
results travel through the database. No writes here, so a plan can be recomputed at will."""

import json
import math
from dataclasses import asdict
from pathlib import Path
from typing import Any

from workers.align import tune
from workers.align.metrics import MeetingScores
from workers.align.params import AlignmentParams

DEFAULT_GRID_PATH = Path(tune.__file__).parent / "defaults" / "grid.json"
FIRST_ROUND_DOCUMENTS = 3
FIRST_ROUND_KEEP = 0.1
SLICES_PER_STAGE = 16
"""Enough tasks per stage for every worker process to stay busy while the stage's documents
differ tenfold in length; each slice scores its documents once per scoring configuration."""
MAX_SETTINGS = 5000


def default_grid() -> dict[str, list[Any]]:
    """The grid the engine's shipped defaults were tuned with."""
    return json.loads(DEFAULT_GRID_PATH.read_text())


def default_stages(gold_count: int) -> list[dict[str, Any]]:
    """The paper's two rounds: every setting on a few gold documents, then the best tenth on
    all of them; one round when there are only a few gold documents."""
    if gold_count <= FIRST_ROUND_DOCUMENTS:
        return [{"documents": gold_count, "keep": 0.0}]
    return [
        {"documents": FIRST_ROUND_DOCUMENTS, "keep": FIRST_ROUND_KEEP},
        {"documents": gold_count, "keep": 0.0},
    ]


def engine_stages(stages: list[dict[str, Any]]) -> list[tune.Stage]:
    return [tune.Stage(meetings=stage["documents"], keep=stage["keep"]) for stage in stages]


def survivors_count(ranked: int, keep: float) -> int:
    """As the engine's successive halving keeps them."""
    return max(1, math.ceil(keep * ranked))


def stage_documents(stages: list[dict[str, Any]], stage: int, gold_ids: list[int]) -> list[int]:
    """The gold documents a stage adds to those the earlier stages evaluated."""
    start = min(stages[stage - 1]["documents"], len(gold_ids)) if stage else 0
    return gold_ids[start : min(stages[stage]["documents"], len(gold_ids))]


def planned_evaluations(stages: list[dict[str, Any]], settings: int, gold_ids: list[int]) -> int:
    total, alive = 0, settings
    for position, stage in enumerate(stages):
        total += alive * len(stage_documents(stages, position, gold_ids))
        if stage["keep"] > 0:
            alive = survivors_count(alive, stage["keep"])
    return total


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
