"""First contact: a newcomer's first pair aligns well with no training data (lexical vectors,
the defaults tuned with them and the lexical prior fitted on public_meetings's gold), in
English and Spanish as in French."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from workers.align import align_texts
from workers.align.corpus import load_public_meetings
from workers.align.excerpts import excerpts
from workers.align.folds import new_document_defaults
from workers.align.params import load_params
from workers.align.scoring.lexical import (
    DIMENSIONS,
    language_mismatch,
    lexical_vectors,
    rarity_weight,
    support,
)

PAIRS = Path(__file__).parent / "fixtures" / "first_contact"
ROOT = Path(__file__).parents[2]


def written_pair(language: str) -> tuple[Path, list[str], list[int]]:
    """A council report written by hand and its transcript, one turn a row, with the segment
    each turn was written from (-1 for the five off-topic turns: a door, a pen, a parking
    notice, the microphone and good night)."""
    rows = json.loads((PAIRS / f"council_{language}.json").read_text(encoding="utf-8"))
    return PAIRS / f"council_{language}.md", [text for text, _ in rows], [s for _, s in rows]


def share_right(labels, expected) -> float:
    return float(np.mean(np.asarray(labels) == np.asarray(expected)))


def test_a_word_and_its_inflections_share_one_direction_weighted_by_their_rarity() -> None:
    vectors = lexical_vectors(["municipal", "municipaux", "conseil", "de"], "fr")
    assert vectors.vector_size == DIMENSIONS
    municipal, municipaux = vectors["municipal"], vectors["municipaux"]
    cosine = municipal @ municipaux / np.linalg.norm(municipal) / np.linalg.norm(municipaux)
    assert cosine == pytest.approx(1.0, abs=1e-6)
    assert np.linalg.norm(vectors["conseil"]) == pytest.approx(rarity_weight("conseil", "fr"))
    assert np.linalg.norm(vectors["de"]) < 0.1
    assert 0 < rarity_weight("conseil", "fr") < rarity_weight("municipaux", "fr")


def test_the_same_words_get_the_same_vectors_in_another_process() -> None:
    here = lexical_vectors(["budget", "library"], "en")["library"]
    script = (
        "from workers.align.scoring.lexical import lexical_vectors;"
        "print(list(map(float, lexical_vectors(['library'], 'en')['library'][:5])))"
    )
    there = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert [float(value) for value in there.strip("[]\n").split(",")] == pytest.approx(
        list(here[:5])
    )


def test_a_language_without_lists_or_stemmer_still_gets_vectors() -> None:
    assert support("xx") == support("xx-YY")
    assert not support("xx").frequencies
    assert not support("xx").stems
    vectors = lexical_vectors(["kala", "kalat"], "xx")
    assert np.linalg.norm(vectors["kala"]) == pytest.approx(1.0)
    assert abs(vectors["kala"] @ vectors["kalat"]) < 0.3


def test_new_documents_get_lexical_vectors_and_the_defaults_tuned_with_them() -> None:
    params = load_params(new_document_defaults())
    assert params.vectors.kind == "lexical"
    assert new_document_defaults().name == "lexical-tuned-on-fold-a.json"
    assert load_params(new_document_defaults("hmm")).aligner == "hmm"


def test_an_english_pair_written_by_hand_gets_four_turns_in_five_right() -> None:
    report, turns, expected = written_pair("en")
    result = align_texts(report, turns, language="en")
    assert "lexical-tuned-on-fold-a.json" in result.params
    assert "lexical prior" in result.params
    assert len(result.segments) == 10
    assert share_right(result.labels, expected) >= 0.8


def test_the_lexical_prior_decides_a_new_pair_and_calibrates_its_confidence() -> None:
    report, turns, expected = written_pair("en")
    decided = align_texts(report, turns, language="en")
    path_alone = align_texts(report, turns, language="en", params=new_document_defaults())
    assert "lexical prior" not in path_alone.params
    assert decided.labels != path_alone.labels
    assert share_right(decided.labels, expected) > share_right(path_alone.labels, expected)
    assert decided.confidence != path_alone.confidence


def test_a_spanish_pair_written_by_hand_gets_four_turns_in_five_right() -> None:
    report, turns, expected = written_pair("es")
    result = align_texts(report, turns, language="es")
    assert share_right(result.labels, expected) >= 0.8


def test_the_command_line_aligns_a_new_pair_without_training_anything(tmp_path) -> None:
    report, turns, _ = written_pair("en")
    transcript = tmp_path / "council.srt"
    transcript.write_text(
        "\n".join(
            f"{index + 1}\n00:{index // 60:02d}:{index % 60:02d},000 --> "
            f"00:{index // 60:02d}:{index % 60:02d},900\n{text}\n"
            for index, text in enumerate(turns)
        ),
        encoding="utf-8",
    )
    out = tmp_path / "aligned.json"
    run = subprocess.run(
        [
            *(sys.executable, "-m", "workers.align", "align", "--report", str(report)),
            *("--transcript", str(transcript), "--language", "en", "--out", str(out), "--json"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    assert "training" not in run.stderr
    assert json.loads(run.stdout)["language"] == "en"
    entries = json.loads(out.read_text(encoding="utf-8"))["ctm"]
    assert len(entries) == len(turns)
    assert sum(entry["aligned"] == "" for entry in entries) < len(entries) / 2


def test_excerpts_keep_their_segments_turns_and_reference_renumbered() -> None:
    (meeting,) = load_public_meetings(["686239f069621dada25c3408f1867d66"])
    parts = excerpts(meeting, 4)
    assert parts
    reference = np.asarray(meeting.reference)
    for part in parts:
        start = int(part.id.rpartition(":")[2].split("-")[0])
        segments = meeting.report.segments[start : start + 4]
        assert [s.id for s in part.report.segments] == [s.id for s in segments]
        assert [s.index for s in part.report.segments] == list(range(len(segments)))
        turn_ids = [turn.id for turn in meeting.transcript.turns]
        positions = [turn_ids.index(turn.id) for turn in part.transcript.turns]
        assert positions == sorted(positions)
        for label, position in zip(part.reference, positions, strict=True):
            expected = reference[position]
            assert label == (-1 if expected == -1 else expected - start)
            assert -1 <= label < len(segments)


@pytest.mark.parametrize(("text", "declared", "likely"), [("en", "es", "en"), ("es", "en", "es")])
def test_a_declared_language_the_text_is_not_in_is_named_with_the_likely_one(
    text, declared, likely
) -> None:
    _, turns, _ = written_pair(text)
    assert language_mismatch(turns, declared) == likely
    assert language_mismatch(turns, text) is None


def test_the_corpus_is_in_the_language_it_declares() -> None:
    (meeting,) = load_public_meetings(["70f6b388b5f90c5edf4e11a61ea9978f"])
    sentences = [s for turn in meeting.transcript.turns for s in turn.sentences]
    assert language_mismatch(sentences, "fr") is None
    assert language_mismatch(sentences, "en") == "fr"


def test_a_pair_aligned_in_the_wrong_language_is_warned_about_by_name() -> None:
    report, turns, _ = written_pair("en")
    result = align_texts(report, turns, language="es")
    mismatch = [finding for finding in result.warnings if finding.code == "language_mismatch"]
    assert len(mismatch) == 1
    assert "'en'" in mismatch[0].message
    assert "'es'" in mismatch[0].message
    assert not align_texts(report, turns, language="en").warnings
