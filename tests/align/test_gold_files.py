"""`gold from-csv` and `gold check`: a researcher's own gold written from a turn,segment CSV,
read back by the same reader `evaluate --gold` uses, and refused by line when wrong."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.align.cli_refusal import refusal
from workers.align.cli.main import main
from workers.align.public_meetings_layout import read_gold

ENGLISH = Path(__file__).parent / "fixtures" / "english"
FILES = ["--report", str(ENGLISH / "council.md"), "--transcript", str(ENGLISH / "council.srt")]
ROWS = "turn,segment,note\n1,1,opening\n2,1,\n3,2,roof\n4,,the window\n5,4,\n"


def from_csv(tmp_path: Path, rows: str, *extra: str) -> list[str]:
    mapping = tmp_path / "map.csv"
    mapping.write_text(rows, encoding="utf-8")
    return ["gold", "from-csv", *FILES, "--csv", str(mapping), "--language", "en", *extra]


def test_a_csv_becomes_gold_that_evaluate_reads(tmp_path, capsys) -> None:
    gold = tmp_path / "gold.json"
    assert main(from_csv(tmp_path, ROWS, "--out", str(gold))) == 0
    assert main(from_csv(tmp_path, ROWS, "--out", str(gold), "--name", "again")) == 0
    said = capsys.readouterr().out
    assert f"added council in {gold}: 5 turns (1 unaligned) on 3 of 4 segments" in said

    (council, again) = read_gold(gold)
    assert (council.id, again.id) == ("again", "council")
    assert list(council.reference or ()) == [0, 0, 1, -1, 3]
    assert [turn.speaker for turn in council.transcript.turns][:2] == ["SPEAKER_00", "SPEAKER_01"]

    assert main(["gold", "check", str(gold), "--json"]) == 0
    checked = json.loads(capsys.readouterr().out)
    assert checked["left_out"] == 0
    assert checked["documents"][0] == {
        "key": "again",
        "segments": 4,
        "turns": 5,
        "unaligned_turns": 1,
        "segments_used": 3,
    }

    params = tmp_path / "diagonal.json"
    params.write_text(json.dumps({"params": {"aligner": "diagonal"}}), encoding="utf-8")
    assert main(["evaluate", "--gold", str(gold), "--params", str(params), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["micro_average"]["meetings"] == 2


@pytest.mark.parametrize(
    ("rows", "place", "problem"),
    [
        ("turn,segment\n1,1\n2,9\n", "line 3", "segment '9' is not a segment of the file"),
        ("turn,segment\n1,1\n1,2\n", "line 3", "turn 1 is listed twice"),
        ("turn,segment\n1,1\n", "whole file", "4 of the transcript's 5 turns have no row"),
        ("position,label\n1,1\n", "line 1", "the header must name the columns turn and segment"),
    ],
)
def test_a_wrong_csv_is_refused_by_line(tmp_path, capsys, rows, place, problem) -> None:
    gold = tmp_path / "gold.json"
    status, said = refusal(capsys, from_csv(tmp_path, rows, "--out", str(gold)))
    assert status == 1
    assert f"map.csv: {place}: {problem}" in said
    assert not gold.exists()


def test_check_points_at_the_first_wrong_item(tmp_path, capsys) -> None:
    gold = tmp_path / "gold.json"
    assert main(from_csv(tmp_path, ROWS, "--out", str(gold))) == 0
    broken = json.loads(gold.read_text(encoding="utf-8"))
    broken["council"]["final"]["ctm"][2]["aligned"] = "0_9_0"
    gold.write_text(json.dumps(broken), encoding="utf-8")

    status, said = refusal(capsys, ["gold", "check", str(gold)])
    assert status == 1
    assert (
        "meetings['council'].final.ctm[2].aligned: '0_9_0' is not an id of this side's doc" in said
    )
    assert "docs/gold-format.md" in said


def test_the_documented_layout_example_reads(tmp_path) -> None:
    page = (Path(__file__).parents[2] / "docs" / "gold-format.md").read_text(encoding="utf-8")
    example = page.split("```json\n", 1)[1].split("```", 1)[0]
    gold = tmp_path / "example.json"
    gold.write_text(example, encoding="utf-8")
    (council,) = read_gold(gold)
    assert (council.id, list(council.reference or ())) == ("council", [0, -1, 1])
