"""`GET /api/v1/aligners/` describes every setting a parameter set may hold, from the engine's
own declarations; a parameter set a lead writes is checked against the aligner it names."""

from rest_framework.test import APIClient

from backend.alignments.models import ParameterSet
from workers.align.params import ALIGNERS, AlignmentParams

URL = "/api/v1/aligners/"


def test_signing_in_is_required():
    assert APIClient().get(URL).status_code in (401, 403)


def test_each_aligner_lists_its_own_settings_then_the_shared_ones(world):
    response = world.client("annotator").get(URL)

    assert response.status_code == 200
    aligners = {aligner["name"]: aligner for aligner in response.json()}
    assert list(aligners) == list(ALIGNERS)
    turns = {setting["key"]: setting for setting in aligners["turns"]["settings"]}
    assert list(turns)[:4] == [
        "turns.match_offset",
        "turns.baseline_quantile",
        "turns.unaligned_gain",
        "turns.gap_open",
    ]
    assert turns["turns.gap_open"] | {"description": ""} == {
        "key": "turns.gap_open",
        "section": "turns",
        "name": "gap_open",
        "kind": "number",
        "nullable": False,
        "choices": [],
        "default": 40.0,
        "description": "",
    }
    assert turns["turns.baseline_quantile"]["nullable"] is True
    assert turns["abstention.min_words"]["kind"] == "integer"
    assert turns["scoring.method"]["choices"] == ["embedding", "tfidf", "rouge"]
    assert not any(key.startswith(("gapped.", "dp.")) for key in turns)
    assert all(setting["description"] for setting in turns.values())
    assert "whole segments" in aligners["turns"]["description"]
    assert aligners["diagonal"]["settings"][0]["section"] == "scoring"


def test_the_listed_defaults_are_the_engines(world):
    """Every listed key is one the engine takes, and its defaults make the aligner's default
    parameter set: the schema cannot drift from what is checked."""
    for aligner in world.client("lead").get(URL).json():
        defaults = {setting["key"]: setting["default"] for setting in aligner["settings"]}
        built = AlignmentParams().with_changes({"aligner": aligner["name"], **defaults})
        assert built == AlignmentParams.of(aligner["name"])


def test_one_aligner_by_name(world):
    client = world.client("lead")

    assert [a["name"] for a in client.get(URL, {"aligner": "gapped"}).json()] == ["gapped"]
    refused = client.get(URL, {"aligner": "bert"})
    assert refused.status_code == 400
    assert "aligner" in refused.json()


def test_a_parameter_set_is_checked_against_its_aligner_and_stored_whole(world):
    url = f"/api/v1/projects/{world.project.pk}/parameter-sets/"
    lead = world.client("lead")

    refused = lead.post(
        url,
        {"name": "mixed", "params": {"aligner": "turns", "gapped": {"skip_gain": 1}}},
        format="json",
    )
    assert refused.status_code == 400
    assert refused.json()["detail"] == (
        "A turns parameter set has no 'gapped' settings: those are the gapped aligner's; "
        "it takes aligner, turns, scoring, vectors and abstention."
    )
    assert not ParameterSet.objects.filter(name="mixed").exists()

    created = lead.post(
        url,
        {"name": "turns", "params": {"aligner": "turns", "turns": {"gap_open": 80}}},
        format="json",
    )
    assert created.status_code == 201, created.json()
    assert (
        created.json()["params"]
        == AlignmentParams.from_dict({"aligner": "turns", "turns": {"gap_open": 80.0}}).to_dict()
    )
