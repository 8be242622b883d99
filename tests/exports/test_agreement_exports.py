"""Exports of doubly annotated gold: each record's agreement, the agreement filter, every
annotator's labels per turn, and the corpus's agreement in the preview and the dataset card."""

import csv
import io
import json
import os
import zipfile

import pytest

from backend.curation.adjudication import adjudication_complete
from backend.projects.models import Membership, Role
from tests.domain import make_user
from tests.exports.conftest import (
    NO_LENGTH_FILTER,
    body,
    corpus_final_labels,
    records,
    submit_gold,
)
from workers.align.annotation.agreement import CodedDocument, agreement
from workers.align.document_model import UNALIGNED

DISAGREEING_TURNS = 40


@pytest.fixture
def doubly(corpus):
    """A second annotator on both gold meetings: agreeing on the first; on the second,
    giving its last DISAGREEING_TURNS aligned turns to the segment before them, where the
    lead adjudicates for the first annotator's labels."""
    second = make_user("export-second")
    Membership.objects.create(project=corpus.project, user=second, role=Role.ANNOTATOR)
    labels = {}
    for index, document in enumerate(corpus.gold):
        document.assignees.add(second)
        final = corpus_final_labels(document)
        theirs = list(final)
        if index == 1:
            aligned = [turn for turn, label in enumerate(final) if label != UNALIGNED]
            for turn in aligned[-DISAGREEING_TURNS:]:
                theirs[turn] = final[aligned[-DISAGREEING_TURNS - 1]]
        submit_gold(second, document, theirs)
        if index == 1:
            adjudication_complete(curator=corpus.lead, document=document, version=0)
        words = list(document.turns.order_by("position").values_list("word_count", flat=True))
        labels[document.pk] = CodedDocument(
            {corpus.annotator.username: final, second.username: theirs}, words
        )
    return second, labels


def export(corpus, path="pairs.jsonl", **params):
    return corpus.client().get(f"{corpus.url}/exports/{path}", {**NO_LENGTH_FILTER, **params})


def test_records_say_which_rule_made_their_gold(corpus):
    exported = records(export(corpus, include_automatic="true"))

    rules = {record["document_id"]: record["gold_rule"] for record in exported}
    assert rules == {
        corpus.gold[0].pk: "single_annotator",
        corpus.gold[1].pk: "single_annotator",
        corpus.pre_aligned.pk: None,
    }


def test_records_carry_their_documents_agreement_and_gold_rule(corpus, doubly):
    _, labels = doubly
    exported = records(export(corpus, include_automatic="true"))

    rules = {record["document_id"]: record["gold_rule"] for record in exported}
    assert rules[corpus.gold[0].pk] == "agreed"
    assert rules[corpus.gold[1].pk] == "adjudicated"
    by_document = {record["document_id"]: record["agreement"] for record in exported}
    agreeing, disagreeing = corpus.gold
    assert by_document[agreeing.pk] == 100.0
    expected = agreement([labels[disagreeing.pk]]).overall.turn_agreement
    assert by_document[disagreeing.pk] == pytest.approx(expected)
    assert expected < 100.0
    assert by_document[corpus.pre_aligned.pk] is None


def test_the_agreement_filter_drops_documents_below_it_and_the_preview_counts_them(corpus, doubly):
    agreeing, disagreeing = corpus.gold
    everything = records(export(corpus))
    threshold = (100.0 + everything[-1]["agreement"]) / 2
    disagreeing_pairs = sum(1 for r in everything if r["document_id"] == disagreeing.pk)

    kept = records(export(corpus, min_agreement=threshold))
    preview = export(corpus, "preview/", min_agreement=threshold).json()

    assert {r["document_id"] for r in kept} == {agreeing.pk}
    step = next(step for step in preview["filters"] if step["filter"] == "min_agreement")
    assert step["removed"] == disagreeing_pairs
    assert step["value"] == threshold
    assert preview["agreement"]["overall"]["documents"] == 1
    assert preview["agreement"]["overall"]["turn_agreement"] == 100.0
    assert export(corpus, min_agreement=101).status_code == 400


def test_the_preview_reports_the_corpus_agreement_pooled_over_gold_documents(corpus, doubly):
    _, labels = doubly
    pooled = agreement(list(labels.values()))

    figures = export(corpus, "preview/").json()["agreement"]

    assert figures["overall"]["documents"] == 2
    assert figures["overall"]["alpha"] == pytest.approx(pooled.overall.alpha)
    assert figures["overall"]["kappa"] == pytest.approx(pooled.overall.kappa)
    assert figures["overall"]["windowdiff"] == pytest.approx(pooled.overall.windowdiff)
    (pair,) = figures["pairs"]
    assert pair["usernames"] == ["export-annotator", "export-second"]


def test_every_annotators_labels_per_turn_on_request(corpus, doubly):
    _, labels = doubly
    exported = records(export(corpus, annotator_labels="true"))
    without = records(export(corpus))

    assert "annotator_labels" not in without[0]
    for record in exported:
        coded = labels[record["document_id"]].labels
        assert record["annotator_labels"] == [
            {"annotator": name, "labels": [coded[name][turn] for turn in record["turn_positions"]]}
            for name in ("export-annotator", "export-second")
        ]
    disagreeing = [
        record
        for record in exported
        if record["annotator_labels"][0]["labels"] != record["annotator_labels"][1]["labels"]
    ]
    assert disagreeing

    rows = list(csv.reader(io.StringIO(body(export(corpus, "pairs.csv", annotator_labels="1"))
                                       .decode())))  # fmt: skip
    assert rows[0][-1] == "annotator_labels"
    assert [json.loads(row[-1]) for row in rows[1:]] == [r["annotator_labels"] for r in exported]


def test_the_hugging_face_card_reports_agreement_and_loads_with_annotator_labels(
    corpus, doubly, tmp_path
):
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
    import datasets

    _, labels = doubly
    params = {"annotator_labels": "true", "valid_ratio": "0", "test_ratio": "0"}
    exported = records(export(corpus, **params))
    archive = body(export(corpus, "huggingface.zip", **params))
    zipfile.ZipFile(io.BytesIO(archive)).extractall(tmp_path / "dataset")

    loaded = datasets.load_dataset(str(tmp_path / "dataset"), cache_dir=str(tmp_path / "cache"))

    assert loaded["train"].to_list() == exported
    card = (tmp_path / "dataset" / "README.md").read_text()
    pooled = agreement(list(labels.values())).overall
    assert "## Agreement" in card
    assert "Pooled over 2 gold documents corrected by two annotators or more" in card
    assert f"| Krippendorff's alpha (nominal) | {pooled.alpha:.3f} |" in card
    assert f"| observed agreement, turns | {pooled.turn_agreement:.2f} % |" in card
