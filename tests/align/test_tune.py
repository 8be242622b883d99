from __future__ import annotations

import json

import pytest

from workers.align.corpus import load_public_meetings
from workers.align.params import AlignmentParams, load_params, save_params
from workers.align.scoring.similarity import ScoringParams
from workers.align.tune import (
    Stage,
    evaluate_grid_slice,
    expand_grid,
    merge_slices,
    objective,
    slice_settings,
    successive_halving,
)

ROUGE = AlignmentParams(scoring=ScoringParams(method="rouge", window_size=1, window_overlap=0))
GRID = {
    "scoring__normalisation": ["none", "rows"],
    "power": [1.0, 2.0],
    "report_decay": [0.0, 1e-4],
    "min_words": [0, 3],
}


@pytest.fixture(scope="module")
def small_meetings():
    return load_public_meetings(["686239", "2f3f95", "0b9ec6"])


def test_params_round_trip_through_a_json_file(tmp_path):
    params = ROUGE.with_changes(power=3.0, scoring__normalisation="both", min_support=0.2)
    save_params(params, tmp_path / "p.json", tuned_on=["x"])
    assert load_params(tmp_path / "p.json") == params
    assert json.loads((tmp_path / "p.json").read_text())["metadata"] == {"tuned_on": ["x"]}
    with pytest.raises(ValueError, match="unknown"):
        AlignmentParams.from_dict({"nope": 1})


def test_expand_grid_varies_joined_names_together():
    settings = expand_grid(
        ROUGE, {"scoring__window_size,scoring__window_overlap": [(1, 0), (2, 1)], "power": [1, 2]}
    )
    assert len(settings) == 4
    assert {(p.scoring.window_size, p.scoring.window_overlap) for p in settings} == {(1, 0), (2, 1)}


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
        small_meetings, settings, None, stages=(Stage(1, 0.25), Stage(3, 0.0)), kind="turns"
    )
    assert {r.params for r in ranked} == {r.params for r in first_meeting[:4]}
    shares = [result.summary.segment_accuracy for result in ranked]
    assert shares == sorted(shares, reverse=True)
