"""Parameters say which aligner they belong to: each aligner's settings in its own section,
checked against the aligner a params file names, with errors that say what is valid."""

from __future__ import annotations

import json

import pytest

from workers.align.baselines.diagonal import DiagonalSettings
from workers.align.confidence import Abstention
from workers.align.folds import defaults_file
from workers.align.params import ALIGNERS, AlignmentParams, load_params, setting_keys
from workers.align.paths.gapped_dp import GapSettings
from workers.align.paths.turn_dp import TurnSettings
from workers.align.setting_fields import SettingsError, describe
from workers.align.tuning.tune import GRIDS, expand_grid, named_grid


def test_a_params_file_holds_only_its_aligners_settings():
    params = AlignmentParams.from_dict({"aligner": "turns", "turns": {"gap_open": 80}})
    assert params.path == TurnSettings(gap_open=80.0)
    assert params.aligner == "turns"
    document = params.to_dict()
    assert set(document) == {"aligner", "turns", "scoring", "vectors", "abstention"}
    assert AlignmentParams.from_dict(document) == params
    assert AlignmentParams.from_dict({}) == AlignmentParams()
    assert "diagonal" not in AlignmentParams.of("diagonal").to_dict()
    assert AlignmentParams.from_dict({"aligner": "diagonal", "diagonal": {}}).aligner == "diagonal"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"aligner": "turns", "gapped": {"skip_gain": 1.0}},
            "A turns parameter set has no 'gapped' settings: those are the gapped aligner's; "
            "it takes aligner, turns, scoring, vectors and abstention.",
        ),
        (
            {"aligner": "turns", "turns": {"skip_gain": 1.0}},
            "There is no setting turns.skip_gain; the turns settings are match_offset, "
            "baseline_quantile, unaligned_gain and gap_open.",
        ),
        (
            {"aligner": "gapped", "match_offset": 0.3},
            "A gapped parameter set has no section 'match_offset' (did you mean "
            "gapped.match_offset or turns.match_offset?)",
        ),
        (
            {"aligner": "bert"},
            "There is no aligner 'bert'; choose turns, gapped, dp, diagonal or hmm.",
        ),
        (
            {"scoring": {"method": "bert"}},
            "scoring.method must be one of embedding, tfidf or rouge, got 'bert'.",
        ),
        ({"aligner": "turns", "turns": {"gap_open": "80"}}, "turns.gap_open must be a finite"),
        ({"aligner": "turns", "turns": {"gap_open": -1}}, "gap_open must be >= 0"),
        ({"abstention": {"min_words": 2.5}}, "abstention.min_words must be an integer"),
        ({"scoring": {"window_size": 1, "window_overlap": 1}}, "0 <= overlap < size"),
        ({"dp": {"powr": 2}}, "There is no setting dp.powr (did you mean power?)"),
        ([1, 2], "Alignment parameters must be an object"),
    ],
)
def test_a_wrong_name_or_value_gets_an_error_naming_what_is_valid(data, message):
    with pytest.raises(SettingsError) as raised:
        AlignmentParams.from_dict(data)
    assert message in str(raised.value)


def test_with_changes_takes_section_names_and_switches_aligner_first():
    turns = AlignmentParams().with_changes({"turns.gap_open": 80.0, "aligner": "turns"})
    assert turns.path == TurnSettings(gap_open=80.0)
    assert turns.with_changes({"abstention.min_words": 3}).abstention == Abstention(min_words=3)
    with pytest.raises(SettingsError, match=r"a setting is named section\.name"):
        turns.with_changes({"unaligned_gain": 2.0})
    with pytest.raises(SettingsError, match=r"did you mean scoring\.centre"):
        turns.with_changes({"scoring__centre": True})


def test_a_grid_over_several_aligners_applies_each_ones_settings_to_it_alone():
    settings = expand_grid(
        AlignmentParams(),
        {
            "aligner": ["gapped", "turns"],
            "gapped.match_offset": [0.2, 0.3],
            "turns.gap_open": [40.0, 80.0],
        },
    )
    assert {params.path for params in settings} == {
        GapSettings(match_offset=0.2),
        GapSettings(match_offset=0.3),
        TurnSettings(gap_open=40.0),
        TurnSettings(gap_open=80.0),
    }
    with pytest.raises(SettingsError, match=r"sets turns\.gap_open but tries no turns aligner"):
        expand_grid(AlignmentParams(), {"aligner": ["dp"], "turns.gap_open": [40.0]})


def test_the_named_grids_and_the_shipped_defaults_are_valid():
    assert len(expand_grid(AlignmentParams(), named_grid("default"))) == 720
    assert len(expand_grid(AlignmentParams(), named_grid("paper"))) == 3 * 2 * 2 * 3 * 2 * 2 * 15
    assert {params.aligner for params in expand_grid(AlignmentParams(), named_grid("paper"))} == {
        "dp"
    }
    assert len(expand_grid(AlignmentParams(), named_grid("hmm"))) == 64
    with pytest.raises(ValueError, match="choose default, paper or hmm"):
        named_grid("wide")
    for fold in ("a", "b"):
        shipped = load_params(defaults_file(fold))
        assert shipped.aligner == "turns"
        assert shipped.to_dict() == json.loads(defaults_file(fold).read_text())["params"]
        hmm = load_params(defaults_file(fold, "hmm"))
        assert hmm.aligner == "hmm"
        assert hmm.to_dict() == json.loads(defaults_file(fold, "hmm").read_text())["params"]
    assert set(GRIDS) == {"default", "paper", "hmm"}


def test_every_setting_is_described():
    for aligner in ALIGNERS:
        keys = setting_keys(aligner)
        assert keys[0].startswith(f"{aligner}.") or aligner == "diagonal"
        assert len(keys) == len(set(keys))
    for kind in (*ALIGNERS.values(), Abstention):
        for info in describe(kind):
            assert info.description, f"{kind.__name__}.{info.name} has no description"
    assert describe(DiagonalSettings) == []
    offset = next(info for info in describe(TurnSettings) if info.name == "baseline_quantile")
    assert (offset.kind, offset.nullable, offset.default) == ("number", True, None)
