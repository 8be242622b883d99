"""`align_texts`, through the examples of docs/align-engine.md run exactly as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.align.topic_vectors import write_topic_vectors
from workers.align import align_texts
from workers.align.document_model import ReaderError

DOC = Path(__file__).parents[2] / "docs" / "align-engine.md"
ENGLISH = Path(__file__).parent / "fixtures" / "english"


def python_api_examples() -> list[str]:
    section = DOC.read_text(encoding="utf-8").split("## Python API", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, flags=re.DOTALL)


def run_example(code: str) -> dict:
    namespace: dict = {"__name__": "example"}
    exec(compile(code, str(DOC), "exec"), namespace)
    return namespace


def test_the_doc_has_both_examples() -> None:
    assert len(python_api_examples()) == 2


def test_the_corpus_example_aligns_most_turns_as_the_reference(raw_meetings) -> None:
    result = run_example(python_api_examples()[0])["result"]
    reference = raw_meetings["686239f069621dada25c3408f1867d66"]["final"]
    assert [turn.text for turn in result.turns] == [t["text"].strip() for t in reference["ctm"]]
    doc_ids = [doc["id"] for doc in reference["doc"]]
    expected = [doc_ids.index(t["aligned"]) if t["aligned"] else -1 for t in reference["ctm"]]
    agreement = sum(a == b for a, b in zip(result.labels, expected, strict=True)) / len(expected)
    assert agreement > 0.8
    assert "tuned-on-fold-a.json" in result.params


def test_the_english_example_with_vectors_the_test_writes(tmp_path, monkeypatch) -> None:
    write_topic_vectors(tmp_path / "vectors.vec")
    monkeypatch.chdir(tmp_path)
    result = run_example(python_api_examples()[1])["result"]
    assert result.labels[:2] == [0, 1]
    assert result.labels[3] == 2
    assert min(result.confidence) == result.confidence[2]
    assert result.rows()[1]["segment_text"].startswith("<nom> mr. green </nom>")


def test_paths_and_binary_vectors(tmp_path) -> None:
    vectors = write_topic_vectors(tmp_path / "vectors.bin", binary=True)
    result = align_texts(
        ENGLISH / "council.md", str(ENGLISH / "council.ctm"), language="en", vectors=vectors
    )
    assert [turn.speaker for turn in result.turns] == ["S0", "S1", "S2", "S3", "S0"]
    assert result.labels[3:] == [2, 3]


def test_a_transcript_in_no_known_format_is_refused_by_name() -> None:
    with pytest.raises(ReaderError, match="unknown transcript format"):
        align_texts("Mr. Smith: hello there.", "just some words")


@pytest.mark.parametrize("missing", ["missing.srt", Path("missing.srt"), ["a.1.ctm", "a.2.ctm"]])
def test_a_missing_transcript_file_is_said_to_be_missing(tmp_path, monkeypatch, missing) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ReaderError, match=r"missing\.srt: file: no such file|a\.1\.ctm: file: no"):
        align_texts(ENGLISH / "council.md", missing)


def test_a_missing_report_file_is_said_to_be_missing(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ReaderError, match=r"notes\.md: file: no such file"):
        align_texts("notes.md", ENGLISH / "council.srt")
