"""Salience labels through the API: the export, its preview and Hugging Face card, the
dashboard's agreement of the ROUGE rule with gold, and the description cleaning preview, on
an episode cut from a real meeting (tests/podcasts/episodes.py)."""

import io
import json
import os
import zipfile

import pytest

from tests.exports.conftest import body, records, submit_gold
from tests.openapi import assert_matches_schema
from workers.align.document_model import UNALIGNED
from workers.align.podcasts.salience import SalienceConfig, label_agreement


def salience(podcasts, **query) -> list[dict]:
    response = podcasts.client().get(f"{podcasts.url}/exports/salience.jsonl", query)
    return records(response)


def test_every_window_is_labelled_with_its_best_description_sentence(podcasts):
    document = podcasts.add_episode("episode")
    units = salience(podcasts)

    windows = list(document.turns.order_by("position").values("position", "start", "end"))
    assert [(unit["position"], unit["start"], unit["end"]) for unit in units] == [
        (window["position"], window["start"], window["end"]) for window in windows
    ]
    description = list(document.segments.order_by("position").values_list("text", flat=True))
    assert all(unit["best_sentence"] in description for unit in units if unit["score"] > 0)
    assert all(unit["automatic_label"] == (unit["score"] > SalienceConfig.tau) for unit in units)
    assert any(unit["automatic_label"] for unit in units), "the report was written from them"
    assert all(unit["candidate"] for unit in units), "fewer windows than 33 + 7"
    assert all(unit["gold_label"] is None for unit in units)


def test_the_threshold_is_the_leads(podcasts):
    podcasts.add_episode("episode")
    response = podcasts.client().patch(
        f"{podcasts.url}/", {"settings": {"salience_tau": 0.99}}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert not any(unit["automatic_label"] for unit in salience(podcasts))


def test_candidates_only_keeps_the_first_and_last_windows(podcasts):
    podcasts.add_episode("long", seconds=1500)
    everything = salience(podcasts)
    assert len(everything) > SalienceConfig.first + SalienceConfig.last
    candidates = salience(podcasts, candidates_only="true")
    expected = everything[: SalienceConfig.first] + everything[-SalienceConfig.last :]
    assert [unit["position"] for unit in candidates] == [unit["position"] for unit in expected]
    response = podcasts.client().get(f"{podcasts.url}/exports/salience.jsonl", {"tau": "0.1"})
    assert response.status_code == 400
    assert response.json() == {
        "detail": "tau: Unknown query parameter; use candidates_only.",
        "tau": ["Unknown query parameter; use candidates_only."],
    }


def aligned_labels(document) -> list[int]:
    """Gold that aligns every other window to the first segment."""
    count = document.turns.count()
    return [0 if position % 2 == 0 else UNALIGNED for position in range(count)]


def test_gold_labels_and_the_dashboards_agreement_follow_the_gold(podcasts):
    document = podcasts.add_episode("episode")
    podcasts.add_episode("without gold", seconds=120)
    labels = aligned_labels(document)
    submit_gold(podcasts.annotator, document, labels)

    units = salience(podcasts)
    with_gold = [unit for unit in units if unit["document_id"] == document.pk]
    assert [unit["gold_label"] for unit in with_gold] == [label != UNALIGNED for label in labels]
    assert all(unit["gold_label"] is None for unit in units if unit["document_id"] != document.pk)

    response = podcasts.client().get(f"{podcasts.url}/dashboard/salience/")
    dashboard = assert_matches_schema(response)
    expected = label_agreement(
        [unit["automatic_label"] for unit in with_gold],
        [unit["gold_label"] for unit in with_gold],
    )
    assert dashboard["gold_documents"] == 1
    assert dashboard["overall"]["f1"] == pytest.approx(expected.f1)
    assert dashboard["overall"]["true_positives"] == expected.true_positives
    assert dashboard["overall"]["false_negatives"] == expected.false_negatives
    assert [row["documents"] for row in dashboard["iterations"]] == [1]
    summary = dashboard["summary"]
    assert summary["units"] == len(units)
    assert summary["automatic_positive"] == sum(unit["automatic_label"] for unit in units)
    assert summary["gold_units"] == len(with_gold)


def test_the_preview_and_the_dataset_card_give_the_positive_ratio(podcasts, tmp_path):
    podcasts.add_episode("episode")
    units = salience(podcasts)
    positive = sum(unit["automatic_label"] for unit in units)

    response = podcasts.client().get(f"{podcasts.url}/exports/preview/", {"include_automatic": 1})
    preview = assert_matches_schema(response)
    assert preview["salience"]["units"] == len(units)
    assert preview["salience"]["positive_ratio"] == pytest.approx(positive / len(units))

    response = podcasts.client().get(f"{podcasts.url}/exports/huggingface.zip")
    archive = zipfile.ZipFile(io.BytesIO(body(response)))
    labelled = [
        json.loads(line)
        for name in archive.namelist()
        if name.startswith("salience/")
        for line in archive.read(name).decode().splitlines()
    ]
    assert sorted(unit["position"] for unit in labelled) == sorted(u["position"] for u in units)
    card = archive.read("README.md").decode()
    assert "- config_name: salience\n  default: true\n" in card, "no pair: salience loads first"
    assert "- config_name: default" not in card
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
    import datasets

    archive.extractall(tmp_path / "dataset")
    loaded = datasets.load_dataset(str(tmp_path / "dataset"), cache_dir=str(tmp_path / "cache"))
    assert sum(len(split) for split in loaded.values()) == len(units)
    assert f"| all | {len(units)} | {positive} | {positive / len(units):.3f} |" in card


def test_a_meeting_projects_preview_has_no_salience(podcasts):
    podcasts.project.kind = "meeting"
    podcasts.project.save()
    response = podcasts.client().get(f"{podcasts.url}/exports/preview/")
    assert assert_matches_schema(response)["salience"] is None


BOILERPLATE = "Abonnez-vous sur https://example.org/podcast et suivez @tandem."


def test_cleaning_is_previewed_then_drops_sentences_from_the_labels(podcasts):
    for number in range(6):
        podcasts.add_episode(
            f"episode {number}",
            seconds=120 + 25 * number,
            description=None if number % 2 else f"{BOILERPLATE} Épisode {number}.",
        )
    response = podcasts.client().get(f"{podcasts.url}/description-cleaning/", {"page_size": 50})
    page = assert_matches_schema(response)
    assert page["count"] == 6
    scored = [sentence for document in page["results"] for sentence in document["sentences"]]
    boilerplate = [sentence for sentence in scored if "abonnez" in sentence["text"]]
    assert boilerplate
    assert not any(sentence["kept"] for sentence in boilerplate)
    assert all(sentence["kept"] == (sentence["salience"] >= 10) for sentence in scored)
    kept = {sentence["text"] for sentence in scored if sentence["kept"]}
    before = salience(podcasts)

    response = podcasts.client().patch(
        f"{podcasts.url}/", {"settings": {"clean_descriptions": True}}, format="json"
    )
    assert response.status_code == 200
    after = salience(podcasts)
    assert all(unit["best_sentence"] in kept for unit in after if unit["score"] > 0)
    assert all(new["score"] <= old["score"] for old, new in zip(before, after, strict=True))
    dropped = {sentence["text"] for sentence in scored if not sentence["kept"]}
    assert any(unit["best_sentence"] in dropped for unit in before), "cleaning changes a label"
    assert sum(unit["score"] for unit in after) < sum(unit["score"] for unit in before)


@pytest.mark.parametrize(
    "path", ["description-cleaning/", "dashboard/salience/", "exports/salience.jsonl"]
)
def test_only_leads_read_the_labels_and_the_cleaning(podcasts, path):
    podcasts.add_episode("episode")
    assert podcasts.client("annotator").get(f"{podcasts.url}/{path}").status_code == 403
    assert podcasts.client().get(f"{podcasts.url}/{path}").status_code == 200
