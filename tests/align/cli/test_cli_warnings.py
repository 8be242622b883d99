"""A degenerate result is said by the command line (a warning on stderr, a `warnings` field in
the JSON summary and in the file it writes) and by the Python API, run as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.align.off_topic_pair import TURNS, write_off_topic_pair
from tests.align.topic_vectors import write_topic_vectors
from workers.align import align_texts
from workers.align.cli.main import main
from workers.align.diagnosis import ALL_UNALIGNED

ROOT = Path(__file__).parents[3]


def run_align(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "workers.align", "align", *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_an_off_topic_pair_is_aligned_with_a_warning_on_stderr_and_in_the_json(tmp_path) -> None:
    report, transcript = write_off_topic_pair(tmp_path)
    out = tmp_path / "council.json"
    done = run_align(
        "--report", str(report), "--transcript", str(transcript), "--language", "en",
        "--out", str(out), "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["written"] == [str(out)]
    assert summary["not_aligned"] == {}
    [warning] = summary["warnings"]
    assert warning["document"] == "council"
    assert warning["code"] == ALL_UNALIGNED
    assert warning["message"] == f"{TURNS} of {TURNS} turns (100% of the words) are left unaligned."
    assert "language setting" in warning["cause"]
    assert "Add more documents" in warning["do"]
    assert f"warning: council: {warning['message']} {warning['cause']}" in done.stderr
    written = json.loads(out.read_text(encoding="utf-8"))
    assert len(written["ctm"]) == TURNS
    assert written["warnings"] == [{k: v for k, v in warning.items() if k != "document"}]


def test_a_pair_of_its_own_topic_gets_no_warning(tmp_path) -> None:
    english = Path(__file__).parents[1] / "fixtures" / "english"
    done = run_align(
        "--report", str(english / "council.md"), "--transcript", str(english / "council.srt"),
        "--language", "en", "--vectors", str(write_topic_vectors(tmp_path / "vectors.vec")),
        "--out", str(tmp_path / "council.json"), "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["warnings"] == []
    assert "warning:" not in done.stderr
    assert json.loads((tmp_path / "council.json").read_text())["warnings"] == []


def test_the_python_api_carries_the_findings(tmp_path) -> None:
    report, transcript = write_off_topic_pair(tmp_path)
    result = align_texts(report, transcript, language="en")
    assert [warning.code for warning in result.warnings] == [ALL_UNALIGNED]
    assert all(label == -1 for label in result.labels)


def test_evaluate_reports_the_meeting_whose_report_covers_little_of_it(capsys) -> None:
    """744c8e99's report covers 7 % of its meeting: with corpus vectors the engine leaves every
    turn unaligned (as the gold nearly does), and says so."""
    assert main(["evaluate", "--meetings", "744c8e99,0b9ec6f0", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [(w["document"][:8], w["code"]) for w in report["warnings"]] == [
        ("744c8e99", ALL_UNALIGNED)
    ]
    assert len(report["per_meeting"]) == 2
