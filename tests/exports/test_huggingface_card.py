"""The Hugging Face export of a project as researchers use it: imported gold's annotator
labels, the card's license, and a project with nothing to export."""

from __future__ import annotations

import io
import os
import zipfile

import public_meetings
import pytest

from backend.documents.models import Document
from backend.projects.models import Membership, Role
from tests.exports.conftest import body, new_project, records, upload
from workers.align.corpus import load_public_meetings


def test_imported_gold_of_one_annotator_lists_that_annotators_labels(corpus):
    meeting = load_public_meetings(["686239f0"])[0]
    target = new_project(corpus.lead)
    client = corpus.client()
    response = upload(client, target, {meeting.id: public_meetings.load_meetings()[meeting.id]})
    assert response.status_code == 201, response.content
    document = Document.objects.get(project=target)
    Membership.objects.create(project=target, user=corpus.annotator, role=Role.ANNOTATOR)
    document.assignees.add(corpus.annotator)

    exported = records(
        client.get(
            f"/api/v1/projects/{target.pk}/exports/pairs.jsonl",
            {"annotator_labels": "true", "min_words": 0, "min_sentences": 0},
        )
    )

    assert exported
    for record in exported:
        assert record["gold_rule"] == "single_annotator"
        assert record["annotator_labels"] == [
            {
                "annotator": corpus.lead.username,
                "labels": [record["segment_position"]] * len(record["turn_positions"]),
            }
        ]


def load_export(client, url: str, params: dict, folder) -> tuple[object, str]:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
    import datasets

    archive = body(client.get(f"{url}/exports/huggingface.zip", params))
    zipfile.ZipFile(io.BytesIO(archive)).extractall(folder / "dataset")
    loaded = datasets.load_dataset(str(folder / "dataset"), cache_dir=str(folder / "cache"))
    return loaded, (folder / "dataset" / "README.md").read_text(encoding="utf-8")


def test_the_card_states_the_license_the_lead_sets(corpus, tmp_path):
    client = corpus.client()
    params = {"test_ratio": "0.5", "valid_ratio": "0"}
    _, unset = load_export(client, corpus.url, params, tmp_path / "unset")
    assert "\nlicense: unknown\n" in unset
    assert "the project's lead sets it in the project's settings (`license`)" in unset

    refused = client.patch(corpus.url + "/", {"settings": {"license": "CC BY 4"}}, format="json")
    assert refused.status_code == 400
    assert "Hugging Face license id" in refused.content.decode()
    response = client.patch(corpus.url + "/", {"settings": {"license": "cc-by-4.0"}}, format="json")
    assert response.status_code == 200, response.content
    loaded, card = load_export(client, corpus.url, params, tmp_path / "set")

    assert "\nlicense: cc-by-4.0\n" in card
    assert "`cc-by-4.0`, as the project's lead set it." in card
    assert sum(len(split) for split in loaded.values()) > 0


@pytest.mark.parametrize("project", ["empty", "filtered"])
def test_an_export_with_no_pair_is_refused_before_any_byte(corpus, project):
    client = corpus.client()
    if project == "empty":
        url, params = f"/api/v1/projects/{new_project(corpus.lead).pk}", {}
    else:
        url, params = corpus.url, {"min_words": 10**6, "max_words": 10**6}

    response = client.get(f"{url}/exports/huggingface.zip", params)

    assert response.status_code == 409
    assert not response.streaming
    assert "Nothing to export: no pair passes these options" in response.json()["detail"]
