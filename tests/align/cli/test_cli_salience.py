"""`python -m workers.align salience` end to end on a public_meetings CTM and on a Whisper
JSON and descriptions the tests write."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import docx
import pytest

from workers.align.cli.main import main
from workers.align.corpus import load_public_meetings
from workers.align.podcasts.time_windows import window_transcript
from workers.align.readers import read_transcript

public_meetings = pytest.importorskip("public_meetings")

DATA = Path(public_meetings.data_root)
SMALL_MEETING = "0b9ec6f049e68d4a35fae75792e2a84e"
CTM = DATA / f"{SMALL_MEETING}.0.ctm"
FIELDS = {"index", "start", "end", "text", "score", "sentence", "salient", "candidate"}


def whisper_json() -> dict:
    """Three segments a minute apart; the second says the description's sentence."""
    said = [
        (0.0, "Welcome back to the show, everyone."),
        (61.0, "Today we talk about dragons who guard the old castle."),
        (125.0, "Thanks for listening, see you next week."),
    ]
    segments = []
    for start, text in said:
        words = [
            {"word": f" {word}", "start": start + i * 0.4, "end": start + i * 0.4 + 0.3}
            for i, word in enumerate(text.split())
        ]
        segments.append({"start": start, "end": words[-1]["end"], "text": text, "words": words})
    return {"segments": segments}


@pytest.fixture
def episode(tmp_path: Path) -> Path:
    (tmp_path / "episode.json").write_text(json.dumps(whisper_json()))
    (tmp_path / "episode.txt").write_text(
        "This week: dragons who guard the old castle.\n\n"
        "Support this podcast: https://anchor.fm/dragons\n"
    )
    return tmp_path


def salience(capsys: pytest.CaptureFixture[str], *arguments: str) -> dict:
    assert main(["salience", *arguments]) == 0
    return json.loads(capsys.readouterr().out)


def refused(capsys: pytest.CaptureFixture[str], status: int, *arguments: str) -> str:
    """stderr of a refused command: status 2 for the command line, 1 for a file's content."""
    with pytest.raises(SystemExit) as exit_info:
        main(["salience", *arguments])
    assert exit_info.value.code == status
    return capsys.readouterr().err


def test_a_meeting_part_is_labelled_against_its_report(tmp_path: Path, capsys) -> None:
    (meeting,) = load_public_meetings([SMALL_MEETING])
    sentences = [s for segment in meeting.report.segments[:6] for s in segment.sentences]
    description = tmp_path / "report.txt"
    description.write_text("\n\n".join(sentences), encoding="utf-8")
    result = salience(capsys, "--transcript", str(CTM), "--description", str(description))
    windows = window_transcript(read_transcript(CTM)).turns
    assert [row["text"] for row in result["windows"]] == [turn.text for turn in windows]
    assert all(set(row) == FIELDS for row in result["windows"])
    assert [(row["start"], row["end"]) for row in result["windows"]] == [
        (turn.start, turn.end) for turn in windows
    ]
    salient = [row for row in result["windows"] if row["salient"]]
    assert salient, "the windows the report's opening came from are salient"
    assert salient[0]["index"] < 10, "the report's first segments are about the start"
    assert all(row["score"] > 0.2 for row in salient)
    assert result["salient"] == len(salient)
    assert result["positive_ratio"] == pytest.approx(len(salient) / len(windows))
    assert len(result["description_sentences"]) == len(sentences)
    assert {row["sentence"] for row in salient} <= set(range(len(sentences)))
    candidates = salience(
        capsys, "--transcript", str(CTM), "--description", str(description), "--candidates"
    )
    assert len(windows) > 40
    assert [row["index"] for row in candidates["windows"]] == [
        *range(33),
        *range(len(windows) - 7, len(windows)),
    ]


def test_a_whisper_json_episode_with_its_description(episode: Path, capsys) -> None:
    result = salience(
        capsys,
        "--transcript",
        str(episode / "episode.json"),
        "--description",
        str(episode / "episode.txt"),
        "--language",
        "en",
        "--window",
        "30",
    )
    rows = result["windows"]
    assert [(row["index"], row["start"]) for row in rows] == [(0, 0.0), (1, 61.0), (2, 125.0)]
    assert [row["salient"] for row in rows] == [False, True, False]
    assert rows[1]["sentence"] == 0
    assert rows[1]["score"] == pytest.approx(5 / 7)  # "this week", "week dragons" unsaid
    assert result["description_sentences"] == [
        {"index": 0, "text": "this week : dragons who guard the old castle ."},
        {"index": 1, "text": "support this podcast : https://anchor.fm/dragons"},
    ]


def test_cleaning_with_a_corpus_drops_the_boilerplate(episode: Path, capsys) -> None:
    corpus = []
    for number in range(30):
        path = episode / f"other{number}.txt"
        topic = "dragons who guard the old castle week" if number < 3 else f"cooking {number}"
        path.write_text(f"{topic} {topic}.\n\nSupport this podcast: https://anchor.fm/x\n")
        corpus.append(str(path))
    result = salience(
        capsys,
        "--transcript",
        str(episode / "episode.json"),
        "--description",
        str(episode / "episode.txt"),
        "--language",
        "en",
        "--clean",
        "--corpus",
        *corpus,
    )
    kept = [(row["text"][:12], row["kept"]) for row in result["description_sentences"]]
    assert kept == [("this week : ", True), ("support this", False)]
    first, boilerplate = result["description_sentences"]
    assert first["salience"] >= 10 > boilerplate["salience"]
    assert [row["salient"] for row in result["windows"]] == [False, True, False]


def test_cleaning_on_a_tiny_corpus_warns_that_it_dropped_everything(episode: Path, capsys):
    result = salience(
        capsys,
        "--transcript",
        str(episode / "episode.json"),
        "--description",
        str(episode / "episode.txt"),
        "--clean",
    )
    assert not any(row["kept"] for row in result["description_sentences"])
    assert not any(row["salient"] for row in result["windows"])


def test_bad_input_exits_naming_the_problem(episode: Path, capsys) -> None:
    untimed = episode / "untimed.json"
    untimed.write_text(json.dumps({"segments": [{"text": "hello there, everyone"}]}))
    description = str(episode / "episode.txt")
    assert "untimed.json: turn 1: has neither word times" in refused(
        capsys, 1, "--transcript", str(untimed), "--description", description
    )
    assert "no such file: " + str(episode / "missing.txt") in refused(
        capsys, 2, "--transcript", str(CTM), "--description", str(episode / "missing.txt")
    )
    assert "positive number of seconds" in refused(
        capsys, 2, "--transcript", str(CTM), "--description", description, "--window", "0"
    )
    assert "give --clean too" in refused(
        capsys, 2, "--transcript", str(CTM), "--description", description, "--corpus", description
    )
    (episode / "blank.md").write_text("#\n\n- \n")
    assert "blank.md: whole file: the description has no sentence" in refused(
        capsys, 1, "--transcript", str(CTM), "--description", str(episode / "blank.md")
    )


def test_the_module_runs_as_a_command(episode: Path) -> None:
    command = [sys.executable, "-m", "workers.align", "salience", "--language", "en"]
    files = ["--transcript", str(episode / "episode.json")]
    done = subprocess.run(
        [*command, *files, "--description", str(episode / "episode.txt")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["salient"] == 1
    failed = subprocess.run(
        [*command, *files, "--description", str(episode / "nowhere.txt")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert failed.returncode == 2
    assert "argument --description: no such file: " in failed.stderr
    assert "Traceback" not in failed.stderr


def test_a_word_description_reads_as_its_text_does(episode: Path, capsys) -> None:
    document = docx.Document()
    document.add_paragraph("This week: dragons who guard the old castle.")
    document.add_paragraph("Support this podcast: https://anchor.fm/dragons")
    document.save(str(episode / "episode.docx"))
    transcript = ["--transcript", str(episode / "episode.json"), "--language", "en"]

    from_word = salience(capsys, *transcript, "--description", str(episode / "episode.docx"))
    from_text = salience(capsys, *transcript, "--description", str(episode / "episode.txt"))

    assert from_word["description_sentences"] == from_text["description_sentences"]
    assert from_word["salient"] == from_text["salient"] == 1
