"""The engine pairs files as the upload page does: both pass tests/fixtures/pairing-cases.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workers.align.file_pairing import (
    REPORT_EXTENSIONS_BY_KIND,
    document_name_of,
    file_role,
    plan_folder,
    plan_pairs,
    stem_of,
)
from workers.align.readers import RECORDING_EXTENSIONS, TRANSCRIPT_EXTENSIONS

CASES = json.loads(
    (Path(__file__).parents[1] / "fixtures" / "pairing-cases.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize(("name", "stem"), CASES["stems"])
def test_stem(name: str, stem: str) -> None:
    assert stem_of(name) == stem


@pytest.mark.parametrize(("name", "document_name"), CASES["names"])
def test_document_name_keeps_the_reports_spelling(name: str, document_name: str) -> None:
    assert document_name_of(name) == document_name


@pytest.mark.parametrize("case", CASES["roles"], ids=" ".join)
def test_role(case: list[str]) -> None:
    name, role, *kind = case
    assert file_role(name, *kind) == role


def test_the_extensions_are_the_upload_pages():
    extensions = CASES["extensions"]
    assert {kind: sorted(listed) for kind, listed in REPORT_EXTENSIONS_BY_KIND.items()} == {
        kind: sorted(listed) for kind, listed in extensions["reports"].items()
    }
    assert sorted(TRANSCRIPT_EXTENSIONS) == sorted(extensions["transcripts"])
    assert sorted(RECORDING_EXTENSIONS) == sorted(extensions["recordings"])


@pytest.mark.parametrize("case", CASES["plans"])
def test_plan(case: dict) -> None:
    plan = plan_pairs(Path(name) for name in case["files"])
    assert [
        {
            "key": pair.key,
            "name": pair.name,
            "report": pair.report.name if pair.report else None,
            "transcripts": [path.name for path in pair.transcripts],
            "audio": pair.audio.name if pair.audio else None,
        }
        for pair in plan
    ] == [{k: v for k, v in pair.items() if k != "problem"} for pair in case["pairs"]]
    for pair, expected in zip(plan, case["pairs"], strict=True):
        if expected["problem"] is None:
            assert pair.problem is None
        else:
            assert pair.problem is not None
            assert pair.problem.startswith(expected["problem"])


def test_a_folder_is_planned_in_name_order_without_its_subfolders(tmp_path: Path) -> None:
    for name in ("b.docx", "b.srt", "a.md", "a.10.ctm", "a.9.ctm"):
        (tmp_path / name).write_text("x", encoding="utf-8")
    (tmp_path / "c.docx").mkdir()
    plan = plan_folder(tmp_path)
    assert [(pair.key, [p.name for p in pair.transcripts]) for pair in plan] == [
        ("a", ["a.9.ctm", "a.10.ctm"]),
        ("b", ["b.srt"]),
    ]
