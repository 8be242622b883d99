from __future__ import annotations

import json

import pytest

from workers.align.corpus import load_public_meetings
from workers.align.layout import sentence_layout
from workers.align.metrics import merge_subturns, score_meeting
from workers.align.params import AlignmentParams, load_params, save_params
from workers.align.pipeline import align_meeting
from workers.align.scoring.similarity import ScoringParams
from workers.align.setting_fields import SettingsError
from workers.align.tuning.tune import (
    Stage,
    evaluate_grid_slice,
    expand_grid,
    merge_slices,
    objective,
    planned_evaluations,
    slice_settings,
    successive_halving,
)

ROUGE = AlignmentParams(scoring=ScoringParams(method="rouge", window_size=1, window_overlap=0))
GRID = {
    "dp.normalisation": ["none", "rows"],
    "dp.power": [1.0, 2.0],
    "dp.report_decay": [0.0, 1e-4],
    "abstention.min_words": [0, 3],
}


@pytest.fixture(scope="module")
def small_meetings():
    return load_public_meetings(["686239", "2f3f95", "0b9ec6"])


def test_params_round_trip_through_a_json_file(tmp_path):
    params = ROUGE.with_changes(
        {"dp.power": 3.0, "dp.normalisation": "both", "abstention.min_support": 0.2}
    )
    save_params(params, tmp_path / "p.json", tuned_on=["x"])
    assert load_params(tmp_path / "p.json") == params
    assert json.loads((tmp_path / "p.json").read_text())["metadata"] == {"tuned_on": ["x"]}


def test_expand_grid_varies_joined_names_together():
    settings = expand_grid(
        ROUGE, {"scoring.window_size,scoring.window_overlap": [(1, 0), (2, 1)], "dp.power": [1, 2]}
    )
    assert len(settings) == 4
    assert {(p.scoring.window_size, p.scoring.window_overlap) for p in settings} == {(1, 0), (2, 1)}


@pytest.mark.parametrize("value", [1, [1], [1, "rows", 3], "ab"])
def test_a_joined_name_takes_one_value_per_name(value):
    with pytest.raises(SettingsError, match=r"joins dp\.power and dp\.normalisation: each of its"):
        expand_grid(ROUGE, {"dp.power,dp.normalisation": [value]})


def test_slices_merge_to_the_whole_grid(small_meetings):
    settings = expand_grid(ROUGE, GRID)
    whole = merge_slices([evaluate_grid_slice(small_meetings, settings, None)])
    parts = [
        evaluate_grid_slice(small_meetings, slice_settings(settings, index, 3), None)
        for index in range(3)
    ]
    assert sum(len(part) for part in parts) == len(settings)
    merged = merge_slices(parts)
    assert [r.params for r in merged] == [r.params for r in whole]
    assert [objective(r.summary) for r in merged] == [objective(r.summary) for r in whole]
    by_meeting = merge_slices(
        [evaluate_grid_slice([meeting], settings, None) for meeting in small_meetings]
    )
    assert [objective(r.summary) for r in by_meeting] == [objective(r.summary) for r in whole]


def test_successive_halving_keeps_the_best_share(small_meetings):
    settings = expand_grid(ROUGE, GRID)
    ranked = successive_halving(
        small_meetings, settings, None, stages=(Stage(1, 0.25), Stage(3, 0.0))
    )
    assert len(ranked) == 4
    assert all(len(result.per_meeting) == 3 for result in ranked)
    objectives = [objective(result.summary) for result in ranked]
    assert objectives == sorted(objectives, reverse=True)


def test_planned_evaluations_are_what_successive_halving_reports(small_meetings):
    """The total of the command line's tuning bar: 16 settings on the first meeting, the best
    4 on the other two."""
    settings = expand_grid(ROUGE, GRID)
    stages = (Stage(1, 0.25), Stage(3, 0.0))
    reported: list[int] = []
    successive_halving(small_meetings, settings, None, stages, progress=reported.append)
    assert sum(reported) == planned_evaluations(stages, len(settings), 3) == 16 + 4 * 2
    assert planned_evaluations((Stage(5, 0.0),), len(settings), 3) == 16 * 3


def test_the_turns_objective_ranks_by_the_share_of_turns_aligned_right(small_meetings):
    settings = expand_grid(ROUGE, GRID)
    results = evaluate_grid_slice(small_meetings, settings, None)
    by_turns = merge_slices([results], kind="turns")
    shares = [result.summary.segment_accuracy for result in by_turns]
    assert shares == sorted(shares, reverse=True)
    assert [objective(r.summary, "turns") for r in by_turns] == shares
    balanced = [objective(r.summary) for r in merge_slices([results])]
    assert balanced == sorted(balanced, reverse=True)
    assert len(set(shares)) > 1, "the grid must separate settings for the ranking to mean much"
    with pytest.raises(ValueError, match="unknown objective 'words'"):
        objective(by_turns[0].summary, "words")


def test_successive_halving_keeps_survivors_by_the_chosen_objective(small_meetings):
    settings = expand_grid(ROUGE, GRID)
    first_meeting = merge_slices([evaluate_grid_slice(small_meetings[:1], settings, None)], "turns")
    ranked = successive_halving(
        small_meetings,
        settings,
        None,
        stages=(Stage(documents=1, keep=0.25), Stage(documents=3, keep=0.0)),
        kind="turns",
    )
    assert {r.params for r in ranked} == {r.params for r in first_meeting[:4]}
    shares = [result.summary.segment_accuracy for result in ranked]
    assert shares == sorted(shares, reverse=True)


def test_the_diagonal_is_scored_without_vectors_as_align_meeting_aligns_with_it(small_meetings):
    """Embedding scoring is the default, yet the diagonal reads no similarities: beside other
    settings (here ROUGE ones) it needs no vectors and scores what align_meeting gives."""
    diagonal = AlignmentParams.of("diagonal")
    results = evaluate_grid_slice(small_meetings, [ROUGE, diagonal], None)

    assert [result.params for result in results] == [ROUGE, diagonal]
    for meeting, (meeting_id, scores) in zip(small_meetings, results[1].per_meeting, strict=True):
        labels = align_meeting(meeting, diagonal).labels
        merged = merge_subturns(
            [turn.id for turn in meeting.transcript.turns],
            meeting.reference,
            labels,
            sentence_layout(meeting).turn_word_counts,
        )
        assert meeting_id == meeting.id
        assert scores == score_meeting(*merged)
