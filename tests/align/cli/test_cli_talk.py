"""`summarize` and `align --aligner hmm` from the command line, on files the tests write."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.align.cli_refusal import refusal
from tests.align.paper_fixtures import SECTIONS, markdown_paper, pdf_paper, swift_vectors, talk_srt
from tests.align.topic_vectors import write_topic_vectors
from workers.align.cli.main import main
from workers.align.params import AlignmentParams
from workers.align.readers import read_paper, transcript_from_texts
from workers.align.talks.summarize import summarize_talk

ENGLISH = Path(__file__).parents[1] / "fixtures" / "english"


@pytest.fixture
def talk_files(tmp_path):
    (tmp_path / "paper.pdf").write_bytes(pdf_paper())
    (tmp_path / "paper.md").write_bytes(markdown_paper())
    (tmp_path / "talk.srt").write_bytes(talk_srt())
    swift_vectors().save_word2vec_format(str(tmp_path / "swifts.vec"))
    (tmp_path / "hmm.json").write_text(
        json.dumps({"params": {"aligner": "hmm", "scoring": {"centre": True}}})
    )
    return tmp_path


def summarize(files: Path, *extra: str, report: str = "paper.pdf") -> list[str]:
    return [
        "summarize",
        "--report",
        str(files / report),
        "--transcript",
        str(files / "talk.srt"),
        "--language",
        "en",
        "--vectors",
        str(files / "swifts.vec"),
        *extra,
    ]


def test_summarize_ranks_the_sentences_the_talk_spent_words_on(talk_files, capsys):
    assert main(summarize(talk_files, "--params", str(talk_files / "hmm.json"))) == 0
    result = json.loads(capsys.readouterr().out)
    ranked = result["ranked"]
    sections = {entry["section"] for entry in ranked}
    assert sections <= {"1 Introduction", "3 Method", "4 Results", "5 Conclusion"}
    assert sum(entry["score"] for entry in ranked) == result["spoken_words"]
    assert [entry["score"] for entry in ranked] == sorted(
        (entry["score"] for entry in ranked), reverse=True
    )
    texts = {entry["text"] for entry in ranked}
    assert "a detector finds every scream and a tracker joins screams into flights ." in texts
    assert "our counts agree with trained observers within ten percent ." in texts
    assert set(result["summaries"]) == {"150_words", "250_words", "ratio_0.3", "ratio_0.4"}
    for summary in result["summaries"].values():
        assert summary["words"] <= summary["budget"]
        assert summary["sentences"] == sorted(summary["sentences"])
    assert result["summaries"]["ratio_0.3"]["budget"] == int(0.3 * result["paper"]["words"])
    assert result["paper"]["states"] == result["paper"]["sentences"] - 5


def test_summarize_lengths_exclusions_and_output_file(talk_files):
    out = talk_files / "out" / "summary.json"
    params = ["--params", str(talk_files / "hmm.json"), "--words", "20", "--ratios", "0.5"]
    code = main(
        summarize(talk_files, *params, "--exclude", "", "--out", str(out), report="paper.md")
    )
    assert code == 0
    result = json.loads(out.read_text())
    assert set(result["summaries"]) == {"20_words", "ratio_0.5"}
    assert result["excluded_sections"] == []
    assert result["paper"]["states"] == result["paper"]["sentences"]
    assert result["paper"]["title"] == "Counting Swifts at Dusk with Cheap Microphones"
    assert len(SECTIONS) == 7


def test_summarize_refuses_other_aligners_bad_lengths_and_broken_papers(talk_files, capsys):
    turns = talk_files / "turns.json"
    turns.write_text(json.dumps({"params": {"aligner": "turns"}}))
    status, said = refusal(capsys, summarize(talk_files, "--params", str(turns)))
    assert (status, "summaries come from the hmm aligner" in said) == (1, True)
    status, said = refusal(capsys, summarize(talk_files, "--params", str(turns), "--ratios", "2"))
    assert (status, "ratios" in said) == (2, True)
    broken = talk_files / "broken.pdf"
    broken.write_bytes(pdf_paper()[:200])
    status, said = refusal(
        capsys, summarize(talk_files, "--params", str(talk_files / "hmm.json"), report="broken.pdf")
    )
    assert (status, f"{broken}: whole file" in said) == (1, True)


def test_summarize_with_the_shipped_hmm_defaults(talk_files, capsys):
    assert main(summarize(talk_files)) == 0
    captured = capsys.readouterr()
    assert "hmm-tuned-on-fold-a.json" in captured.err
    assert json.loads(captured.out)["ranked"]


def test_align_with_the_hmm_on_own_files_and_on_public_meetings(tmp_path, capsys):
    out = tmp_path / "council.json"
    code = main(
        [
            "align",
            "--aligner",
            "hmm",
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
    assert "hmm-tuned-on-fold-a.json" in json.loads(capsys.readouterr().out)["params"]
    entries = json.loads(out.read_text())["ctm"]
    assert any(entry["aligned"] for entry in entries)

    pytest.importorskip("public_meetings")
    folder = tmp_path / "meetings"
    assert main(["align", "--aligner", "hmm", "--meetings", "686239", "--out", str(folder)]) == 0
    written = json.loads((folder / "686239f069621dada25c3408f1867d66.json").read_text())["ctm"]
    assert len(written) == 33
    assert sum(bool(entry["aligned"]) for entry in written) > 16


def test_a_paper_without_states_or_introduction_and_a_silent_talk():
    paper = read_paper(markdown_paper(), "paper.md", language="en")
    talk = transcript_from_texts(["Swifts scream at dusk.", "..."], language="en")
    hmm = AlignmentParams.of("hmm")
    vectors = swift_vectors()
    everything_excluded = summarize_talk(
        paper, talk, hmm, vectors, excluded=tuple(s.title for s in paper.sections)
    ).to_dict()
    assert everything_excluded["ranked"] == []
    assert all(not s["sentences"] for s in everything_excluded["summaries"].values())

    no_introduction = summarize_talk(paper, talk, hmm, vectors, excluded=("1 Introduction",))
    assert no_introduction.scores.sum() == no_introduction.spoken_words == 4

    silent = transcript_from_texts(["...", "?"], language="en")
    quiet = summarize_talk(paper, silent, hmm, vectors).to_dict()
    assert quiet["spoken_words"] == 0
    assert quiet["ranked"] == []
