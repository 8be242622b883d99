"""`align --report/--transcript` and `align --pairs` on files the tests write or the corpus
package ships, read and paired as the web upload reads and pairs them."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from tests.align.cli_refusal import refusal
from tests.align.topic_vectors import write_topic_vectors
from workers.align.cli.main import main
from workers.align.pairs.shape import FIELDS

public_meetings = pytest.importorskip("public_meetings")

ENGLISH = Path(__file__).parents[1] / "fixtures" / "english"
DATA = Path(public_meetings.data_root)
SMALL_MEETING = "686239f069621dada25c3408f1867d66"
MULTI_PART_MEETING = "199073d27fc61f6a76cb1f9c1d977aa6"


def test_one_pair_writes_one_entry_per_turn_and_says_which_parameters(tmp_path, capsys) -> None:
    out = tmp_path / "council.json"
    code = main(
        [
            "align",
            "--report",
            str(ENGLISH / "council.md"),
            "--transcript",
            str(ENGLISH / "council.srt"),
            "--language",
            "en",
            "--vectors",
            str(write_topic_vectors(tmp_path / "vectors.vec")),
            "--out",
            str(out),
            "--json",
        ]
    )
    assert code == 0
    captured = capsys.readouterr()
    assert "parameters: the shipped defaults tuned-on-fold-a.json" in captured.err
    assert json.loads(captured.out)["written"] == [str(out)]
    entries = json.loads(out.read_text(encoding="utf-8"))["ctm"]
    assert [entry["id"] for entry in entries] == [f"0_{i}_0" for i in range(5)]
    assert [entry["aligned"] for entry in entries[:2]] == ["0_0_0", "0_1_0"]
    assert entries[3]["aligned"] == "0_2_0"
    assert all(0.0 <= entry["confidence"] <= 1.0 for entry in entries)


def test_a_folder_of_real_meetings_pairs_ctm_parts_and_writes_csv_pairs(tmp_path, capsys) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(DATA / f"{SMALL_MEETING}.docx", folder / "Small_Report.docx")
    shutil.copy(next(DATA.glob(f"{SMALL_MEETING}.*.ctm")), folder / "small.0.ctm")
    shutil.copy(DATA / f"{MULTI_PART_MEETING}.docx", folder / "parts.docx")
    for part in DATA.glob(f"{MULTI_PART_MEETING}.*.ctm"):
        shutil.copy(part, folder / f"parts.{part.suffixes[-2][1:]}.ctm")
    (folder / "lonely.md").write_text("Mr. Smith: no transcript here.\n", encoding="utf-8")
    (folder / "notes.pdf").write_bytes(b"%PDF")
    out = tmp_path / "pairs.csv"

    code = main(
        [
            "align",
            "--pairs",
            str(folder),
            "--format",
            "csv",
            "--min-sentences",
            "1",
            "--out",
            str(out),
        ]
    )

    assert code == 1, "a pair that could not be formed makes the exit status 1"
    said = capsys.readouterr().err
    assert f"lonely: not aligned: no transcript for lonely.md in {folder}: add lonely.srt" in said
    assert "pair one here" not in said
    with out.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert tuple(rows[0]) == FIELDS
    assert {row["document_name"] for row in rows} == {"parts", "Small"}
    assert {row["origin"] for row in rows} == {"automatic"}
    assert all(int(row["source_words"]) >= 10 for row in rows), "the exports' length filters"


def test_a_folder_in_json_writes_a_file_per_document(tmp_path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(ENGLISH / "council.md", folder / "council.md")
    shutil.copy(ENGLISH / "council.srt", folder / "council_transcript.srt")
    shutil.copy(ENGLISH / "council.md", folder / "again_report.md")
    shutil.copy(ENGLISH / "council.ctm", folder / "again.ctm")
    out = tmp_path / "out"
    vectors = write_topic_vectors(tmp_path / "vectors.bin", binary=True)

    code = main(["align", "--pairs", str(folder), "--language", "en", "--vectors", str(vectors),
                 "--out", str(out)])  # fmt: skip

    assert code == 0
    assert sorted(path.name for path in out.iterdir()) == ["again.json", "council.json"]
    assert len(json.loads((out / "again.json").read_text())["ctm"]) == 5


def test_jsonl_pairs_keep_low_confidence_ones_only_when_asked(tmp_path) -> None:
    common = ["align", "--report", str(ENGLISH / "council.md"), "--transcript",
              str(ENGLISH / "council.srt"), "--language", "en", "--vectors",
              str(write_topic_vectors(tmp_path / "v.vec")), "--format", "jsonl",
              "--min-words", "1", "--min-sentences", "1"]  # fmt: skip
    assert main([*common, "--out", str(tmp_path / "all.jsonl")]) == 0
    assert main([*common, "--min-confidence", "0.6", "--out", str(tmp_path / "sure.jsonl")]) == 0
    every = [json.loads(line) for line in (tmp_path / "all.jsonl").read_text().splitlines()]
    sure = [json.loads(line) for line in (tmp_path / "sure.jsonl").read_text().splitlines()]
    assert [record["segment_position"] for record in every] == [0, 1, 2, 3]
    assert all(record["confidence"] >= 0.6 for record in sure)
    assert len(sure) < len(every)
    assert every[2]["turn_positions"] == [2, 3]


def test_a_malformed_file_is_named_and_nothing_is_written(tmp_path, capsys) -> None:
    broken = tmp_path / "broken.srt"
    broken.write_text("1\nnot a timing\nhello\n", encoding="utf-8")
    status, said = refusal(capsys, ["align", "--report", str(ENGLISH / "council.md"),
                                    "--transcript", str(broken),
                                    "--out", str(tmp_path / "out.json")])  # fmt: skip
    assert status == 1
    assert "broken.srt: line 2: expected a timing" in said
    assert not (tmp_path / "out.json").exists()


def test_own_files_need_both_sides(tmp_path, capsys) -> None:
    status, said = refusal(
        capsys, ["align", "--report", str(ENGLISH / "council.md"), "--out", str(tmp_path / "x")]
    )
    assert status == 2
    assert "both --report FILE and --transcript FILE" in said


def test_corpus_meetings_can_be_written_as_pairs_too(tmp_path, raw_meetings) -> None:
    out = tmp_path / "corpus.jsonl"
    code = main(["align", "--meetings", SMALL_MEETING[:6], "--format", "jsonl", "--min-words",
                 "0", "--min-sentences", "0", "--out", str(out)])  # fmt: skip
    assert code == 0
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert {record["meeting"] for record in records} == {SMALL_MEETING}
    segments = [doc["text"].strip() for doc in raw_meetings[SMALL_MEETING]["final"]["doc"]]
    assert all(record["target"] == segments[record["segment_position"]] for record in records)


def test_align_says_how_it_cut_a_report_of_bare_names_and_merged_cues(tmp_path, capsys) -> None:
    report = tmp_path / "council.md"
    report.write_text(
        "# Town council\n\n"
        "Alice Brown: Good evening, everyone. The session is open.\n\n"
        "Bob Stone: The library roof leaks every winter.\n\n"
        "Alice Brown: Parking downtown is scarce; we vote on meters next month.\n",
        encoding="utf-8",
    )
    code = main(["align", "--report", str(report), "--transcript", str(ENGLISH / "council.srt"),
                 "--language", "en", "--vectors", str(write_topic_vectors(tmp_path / "v.vec")),
                 "--out", str(tmp_path / "out.json"), "--json"])  # fmt: skip

    assert code == 0
    captured = capsys.readouterr()
    reading = json.loads(captured.out)["documents"]["council"]
    assert reading == {"segments": 3, "segmented_by": "speakers", "turns": 5, "timed_pieces": 6}
    assert f"council: {report}: 3 segments, one per speaker intervention" in captured.err
    assert "1 to 4 capitalised words ('Alice Brown:'" in captured.err
    assert "5 turns from 6 timed pieces (cues or segments)" in captured.err
