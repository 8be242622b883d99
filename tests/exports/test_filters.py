"""Filters at their bounds, text cleaning and the preview, on real meetings."""

import re

import pytest

from backend.alignments.selectors import current_pre_alignment
from backend.alignments.services.pre_alignments import (
    parameter_set_get_or_create,
    pre_alignment_record,
)
from tests.exports.conftest import NO_LENGTH_FILTER, records

SIDES = {
    "words": ("source_words", "target_words"),
    "sentences": ("source_sentences", "target_sentences"),
}


def export(corpus, **params) -> list[dict]:
    return records(corpus.client().get(f"{corpus.url}/exports/pairs.jsonl", params))


def ids(exported: list[dict]) -> set[str]:
    return {record["id"] for record in exported}


@pytest.mark.parametrize("measure", ["words", "sentences"])
def test_a_lower_bound_keeps_a_pair_at_the_bound_and_drops_it_one_above(corpus, measure):
    everything = export(corpus, **NO_LENGTH_FILTER)
    shortest = min(everything, key=lambda record: min(record[side] for side in SIDES[measure]))
    bound = min(shortest[side] for side in SIDES[measure])
    name = f"min_{measure}"

    at_bound = export(corpus, **{**NO_LENGTH_FILTER, name: bound})
    above = export(corpus, **{**NO_LENGTH_FILTER, name: bound + 1})

    assert shortest["id"] in ids(at_bound)
    assert shortest["id"] not in ids(above)
    assert all(min(r[side] for side in SIDES[measure]) >= bound + 1 for r in above)


@pytest.mark.parametrize("measure", ["words", "sentences"])
def test_an_upper_bound_keeps_a_pair_at_the_bound_and_drops_it_one_below(corpus, measure):
    everything = export(corpus, **NO_LENGTH_FILTER)
    longest = max(everything, key=lambda record: max(record[side] for side in SIDES[measure]))
    bound = max(longest[side] for side in SIDES[measure])
    name = f"max_{measure}"

    at_bound = export(corpus, **{**NO_LENGTH_FILTER, name: bound})
    below = export(corpus, **{**NO_LENGTH_FILTER, name: bound - 1})

    assert longest["id"] in ids(at_bound)
    assert longest["id"] not in ids(below)
    assert all(max(r[side] for side in SIDES[measure]) <= bound - 1 for r in below)


def test_the_default_bounds_are_the_papers(corpus):
    exported = export(corpus)

    assert exported
    assert len(exported) < len(export(corpus, **NO_LENGTH_FILTER))
    for record in exported:
        assert min(record["source_words"], record["target_words"]) >= 10
        assert max(record["source_words"], record["target_words"]) <= 1000
        assert min(record["source_sentences"], record["target_sentences"]) >= 3
        assert max(record["source_sentences"], record["target_sentences"]) <= 50


def give_confidences(corpus) -> None:
    """An engine pre-alignment of the pre-aligned meeting: turn j has confidence j / turns."""
    document = corpus.pre_aligned
    labels = current_pre_alignment(document=document).labels
    pre_alignment_record(
        document=document,
        parameter_set=parameter_set_get_or_create(
            project=corpus.project, name="engine", params={}, engine_version="t"
        ),
        labels=labels,
        confidences=[turn / document.turn_count for turn in range(document.turn_count)],
        engine_version="t",
    )


def test_automatic_pairs_carry_their_weakest_turns_confidence(corpus):
    give_confidences(corpus)

    automatic = [
        record
        for record in export(corpus, include_automatic="true", **NO_LENGTH_FILTER)
        if record["origin"] == "automatic"
    ]

    turns = corpus.pre_aligned.turn_count
    assert automatic
    for record in automatic:
        assert record["confidence"] == round(min(record["turn_positions"]) / turns, 6)


def test_the_confidence_threshold_keeps_a_pair_at_it_and_drops_it_just_above(corpus):
    give_confidences(corpus)
    params = {"include_automatic": "true", **NO_LENGTH_FILTER}
    automatic = [r for r in export(corpus, **params) if r["origin"] == "automatic"]
    pair = automatic[len(automatic) // 2]

    at = export(corpus, **params, min_confidence=pair["confidence"])
    above = export(corpus, **params, min_confidence=pair["confidence"] + 1e-6)

    assert pair["id"] in ids(at)
    assert pair["id"] not in ids(above)
    assert all(r["confidence"] > pair["confidence"] for r in above)
    gold = [r for r in export(corpus, **params, min_confidence=1.0) if r["origin"] == "gold"]
    assert ids(gold) == ids(export(corpus, **NO_LENGTH_FILTER))


def test_pairs_without_confidence_pass_only_a_zero_threshold(corpus):
    params = {"include_automatic": "true", **NO_LENGTH_FILTER}

    with_zero = export(corpus, **params, min_confidence=0)
    with_some = export(corpus, **params, min_confidence=0.01)

    assert any(r["origin"] == "automatic" for r in with_zero)
    assert not any(r["origin"] == "automatic" for r in with_some)


TAG = re.compile(r"^</?[a-z]+>$")


def test_cleaning_options_remove_what_they_name_from_real_texts(corpus):
    plain = export(corpus, **NO_LENGTH_FILTER)
    cleaned = export(
        corpus,
        **NO_LENGTH_FILTER,
        remove_tags="true",
        remove_speaker_names="true",
        remove_unk="true",
    )

    assert any("<unk>" in r["source"] for r in plain)
    assert any("<nom>" in r["target"] for r in plain)
    assert [r["id"] for r in cleaned] == [r["id"] for r in plain]
    for before, after in zip(plain, cleaned, strict=True):
        assert not any(
            TAG.match(token) for token in after["source"].split() + after["target"].split()
        )
        if before["segment_speaker"]:
            assert not after["target"].startswith(before["segment_speaker"])
        assert after["source_words"] == before["source_words"]
        assert after["target_words"] < before["target_words"]


def test_removing_headings_drops_heading_text(corpus):
    plain = export(corpus, **NO_LENGTH_FILTER)
    with_heading = [r for r in plain if "<h>" in r["target"]]

    cleaned = {r["id"]: r for r in export(corpus, **NO_LENGTH_FILTER, remove_headings="true")}

    assert with_heading
    for record in with_heading:
        heading = record["target"].split("<h>")[1].split("</h>")[0].strip()
        assert "<h>" not in cleaned[record["id"]]["target"]
        assert heading not in cleaned[record["id"]]["target"]


def test_the_preview_counts_what_each_filter_removes_in_order(corpus):
    give_confidences(corpus)
    params = {"include_automatic": "true", "min_confidence": 0.3}
    everything = export(corpus, include_automatic="true", **NO_LENGTH_FILTER)

    preview = corpus.client().get(f"{corpus.url}/exports/preview/", params).json()

    remaining = everything
    for step, check in (
        ("min_confidence", lambda r: r["origin"] == "gold" or r["confidence"] >= 0.3),
        ("min_words", lambda r: min(r["source_words"], r["target_words"]) >= 10),
        ("max_words", lambda r: max(r["source_words"], r["target_words"]) <= 1000),
        ("min_sentences", lambda r: min(r["source_sentences"], r["target_sentences"]) >= 3),
        ("max_sentences", lambda r: max(r["source_sentences"], r["target_sentences"]) <= 50),
    ):
        kept = [r for r in remaining if check(r)]
        reported = next(s for s in preview["filters"] if s["filter"] == step)
        assert (reported["removed"], reported["kept"]) == (len(remaining) - len(kept), len(kept))
        remaining = kept
    exported = export(corpus, **params)
    assert preview["pairs_before_filters"]["total"] == len(everything)
    assert preview["pairs"]["total"] == len(exported) == len(remaining)
    assert preview["documents"] == {"total": 3, "gold": 2, "automatic": 1}
    assert sum(split["pairs"] for split in preview["splits"].values()) == len(exported)


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"min_words": "-1"}, "min_words"),
        ({"min_words": "20", "max_words": "10"}, "min_words"),
        ({"min_sentences": "x"}, "min_sentences"),
        ({"min_confidence": "1.5"}, "min_confidence"),
        ({"valid_ratio": "0.6", "test_ratio": "0.6"}, "test_ratio"),
        ({"include_automatic": "perhaps"}, "include_automatic"),
        ({"min_word": "5"}, "min_word"),
    ],
)
@pytest.mark.parametrize("path", ["preview/", "pairs.jsonl", "huggingface.zip"])
def test_a_bad_parameter_is_refused_by_name(corpus, params, field, path):
    response = corpus.client().get(f"{corpus.url}/exports/{path}", params)

    assert response.status_code == 400
    assert field in response.json()
    assert not response.streaming


def test_the_project_dump_takes_no_filters(corpus):
    response = corpus.client().get(f"{corpus.url}/exports/public-meetings.json", {"min_words": 3})

    assert response.status_code == 400
    assert response.json() == {
        "detail": "min_words: Unknown query parameter; this export takes none.",
        "min_words": ["Unknown query parameter; this export takes none."],
    }
