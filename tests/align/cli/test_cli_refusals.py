"""Every command, given each kind of bad input, run as a researcher runs it (a new process):
exit status 2 for the command line, 1 for a file's content, one line naming the file and
what to do, and never a traceback. Refusals come before any long work (no word vectors are
trained for a gold too small for its folds)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = Path(__file__).parents[1] / "fixtures"
ENGLISH = FIXTURES / "english"


def _side(text: str) -> dict:
    return {
        "doc": [{"id": "0_0_0", "text": f"<p> {text} </p>"}],
        "ctm": [{"id": "0_0_0", "text": text, "aligned": "0_0_0"}],
    }


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("bad")
    gold = folder / "gold.json"
    gold.write_text(
        json.dumps({f"meeting{n}": {"final": _side(f"words of meeting {n}")} for n in range(3)}),
        encoding="utf-8",
    )
    broken_srt = folder / "broken.srt"
    broken_srt.write_text("1\nnot a timing\nhello\n", encoding="utf-8")
    malformed = folder / "malformed.json"
    malformed.write_text('{"meeting": {"final": ', encoding="utf-8")
    lone = folder / "pairs"
    lone.mkdir()
    (lone / "lonely.md").write_text("Alice Brown: nobody recorded this.\n", encoding="utf-8")
    broken_pdf = folder / "broken.pdf"
    broken_pdf.write_bytes(b"%PDF-1.4 truncated")
    return {
        "gold": gold,
        "broken_srt": broken_srt,
        "malformed": malformed,
        "pairs": lone,
        "broken_pdf": broken_pdf,
        "out": folder / "out.json",
    }


REPORT, TRANSCRIPT = str(ENGLISH / "council.md"), str(ENGLISH / "council.srt")
CASES = {
    "align: missing report": (
        ["align", "--report", "nothere.md", "--transcript", TRANSCRIPT, "--out", "{out}"],
        2,
        "argument --report: no such file: nothere.md",
    ),
    "align: report given as transcript": (
        ["align", "--report", REPORT, "--transcript", REPORT, "--out", "{out}"],
        1,
        "council.md: file name: unknown transcript format; expected one of .ctm",
    ),
    "align: malformed transcript": (
        ["align", "--report", REPORT, "--transcript", "{broken_srt}", "--out", "{out}"],
        1,
        "broken.srt: line 2: expected a timing",
    ),
    "align: missing params": (
        [
            "align",
            "--report",
            REPORT,
            "--transcript",
            TRANSCRIPT,
            "--params",
            "nothere.json",
            "--out",
            "{out}",
        ],
        2,
        "argument --params: no such file: nothere.json",
    ),
    "align: gold given as params": (
        [
            "align",
            "--report",
            REPORT,
            "--transcript",
            TRANSCRIPT,
            "--params",
            "{gold}",
            "--out",
            "{out}",
        ],
        1,
        "gold.json: this is a gold file",
    ),
    "align: a transcript as --vectors": (
        [
            "align",
            "--report",
            REPORT,
            "--transcript",
            TRANSCRIPT,
            "--vectors",
            "{broken_srt}",
            "--out",
            "{out}",
        ],
        1,
        "--vectors {broken_srt}: not a word-vectors file",
    ),
    "align: a lone report in --pairs": (
        ["align", "--pairs", "{pairs}", "--out", "{out}"],
        1,
        "lonely: not aligned: no transcript for lonely.md in",
    ),
    "align: both --pairs and --report": (
        ["align", "--pairs", "{pairs}", "--report", REPORT, "--out", "{out}"],
        2,
        "give either --pairs or --report/--transcript, not both",
    ),
    "evaluate: missing gold": (
        ["evaluate", "--gold", "nothere.json"],
        2,
        "argument --gold: no such file or folder: nothere.json",
    ),
    "evaluate: malformed gold": (
        ["evaluate", "--gold", "{malformed}"],
        1,
        "--gold {malformed}: not a readable UTF-8 JSON file",
    ),
    "evaluate: a transcript as gold": (
        ["evaluate", "--gold", TRANSCRIPT],
        1,
        f"--gold {TRANSCRIPT}: not a readable UTF-8 JSON file",
    ),
    "evaluate: gold given as params": (
        ["evaluate", "--gold", "{gold}", "--params", "{gold}"],
        1,
        "gold.json: this is a gold file",
    ),
    "evaluate: more folds than gold documents": (
        ["evaluate", "--gold", "{gold}", "--cv", "5"],
        2,
        "--cv 5: --gold {gold} has 3 document(s) with gold, too few for 5 folds",
    ),
    "evaluate: a transcript as --vectors": (
        ["evaluate", "--gold", "{gold}", "--vectors", "{broken_srt}"],
        1,
        "--vectors {broken_srt}: not a word-vectors file",
    ),
    "tune: more folds than gold documents": (
        ["tune", "--gold", "{gold}", "--cv", "5", "--out", "{out}"],
        2,
        "give --cv between 2 and 3",
    ),
    "tune: one fold": (
        ["tune", "--gold", "{gold}", "--cv", "1", "--out", "{out}"],
        2,
        "argument --cv: 1: give a whole number of folds, 2 or more",
    ),
    "tune: missing grid": (
        ["tune", "--gold", "{gold}", "--grid", "nothere.json", "--out", "{out}"],
        2,
        "argument --grid: nothere.json is neither a grid name",
    ),
    "tune: malformed grid": (
        ["tune", "--gold", "{gold}", "--grid", "{malformed}", "--out", "{out}"],
        1,
        "--grid {malformed}: not UTF-8 JSON",
    ),
    "gold check: missing file": (
        ["gold", "check", "nothere.json"],
        2,
        "argument file: no such file or folder: nothere.json",
    ),
    "gold check: a transcript as gold": (
        ["gold", "check", TRANSCRIPT],
        1,
        f"{TRANSCRIPT}: not a readable UTF-8 JSON file",
    ),
    "gold from-csv: a gold file as the CSV": (
        [
            "gold",
            "from-csv",
            "--report",
            REPORT,
            "--transcript",
            TRANSCRIPT,
            "--csv",
            "{gold}",
            "--out",
            "{out}",
        ],
        1,
        "gold.json: line 1: the header must name the columns turn and segment",
    ),
    "salience: missing description": (
        ["salience", "--transcript", TRANSCRIPT, "--description", "nothere.txt"],
        2,
        "argument --description: no such file: nothere.txt",
    ),
    "salience: malformed transcript": (
        ["salience", "--transcript", "{broken_srt}", "--description", REPORT],
        1,
        "broken.srt: line 2: expected a timing",
    ),
    "summarize: missing paper": (
        ["summarize", "--report", "nothere.pdf", "--transcript", TRANSCRIPT],
        2,
        "argument --report: no such file: nothere.pdf",
    ),
    "summarize: broken paper": (
        ["summarize", "--report", "{broken_pdf}", "--transcript", TRANSCRIPT],
        1,
        "broken.pdf: whole file",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_bad_input_is_refused_with_a_status_and_a_line_that_names_it(files, case) -> None:
    arguments, status, message = CASES[case]
    names = {key: str(path) for key, path in files.items()}
    done = subprocess.run(
        [sys.executable, "-m", "workers.align", *(a.format(**names) for a in arguments)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == status, done.stderr
    assert message.format(**names) in done.stderr
    assert "Traceback" not in done.stderr
    assert "word vectors" not in done.stderr
    assert not files["out"].exists()
