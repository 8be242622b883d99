"""Readers on the corpus's real raw files, on small hand-written fixtures, and on broken copies."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

from workers.align.document_model import ReaderError
from workers.align.readers import (
    read_report,
    read_transcript,
    report_summary,
    transcript_summary,
)

public_meetings = pytest.importorskip("public_meetings")

DATA = Path(public_meetings.data_root)
FIXTURES = Path(__file__).parents[1] / "fixtures"
SMALL_MEETING = "0b9ec6f049e68d4a35fae75792e2a84e"
MULTI_PART_MEETING = "199073d27fc61f6a76cb1f9c1d977aa6"


def ctm_parts(meeting_id: str) -> list[Path]:
    return sorted(DATA.glob(f"{meeting_id}.*.ctm"))


def share_of_reference_found(produced: list[str], reference: list[str]) -> float:
    available = Counter(produced)
    found = 0
    for text in reference:
        if available[text]:
            available[text] -= 1
            found += 1
    return found / len(reference)


# --- real corpus files ---------------------------------------------------------------------


def test_ctm_reader_reproduces_every_turn_of_a_small_meeting(raw_meetings: dict) -> None:
    transcript = read_transcript(ctm_parts(SMALL_MEETING))
    reference = [turn["text"].strip() for turn in raw_meetings[SMALL_MEETING]["final"]["ctm"]]
    assert [turn.text for turn in transcript.turns] == reference
    first = transcript.turns[0]
    assert (first.speaker, first.start, first.end) == ("S0", 0.04, 34.04)
    assert first.words[0].text == "ce"
    assert (first.words[0].start, first.words[0].confidence) == (0.82, 1.0)
    assert first.words[0].end == pytest.approx(0.88)
    assert all("<" not in sentence for turn in transcript.turns for sentence in turn.sentences)


def test_ctm_parts_are_concatenated_in_numeric_order(raw_meetings: dict) -> None:
    parts = ctm_parts(MULTI_PART_MEETING)
    assert len(parts) == 3
    transcript = read_transcript(list(reversed(parts)))
    reference = [turn["text"].strip() for turn in raw_meetings[MULTI_PART_MEETING]["final"]["ctm"]]
    assert transcript.turns[0].text == reference[0]
    assert transcript.turns[-1].text == reference[-1]
    assert abs(len(transcript.turns) - len(reference)) <= 5


def test_ctm_reader_matches_nearly_all_corpus_turns(raw_meetings: dict) -> None:
    """383fa9... is left out: the corpus omits the last of its six recording parts."""
    produced: list[str] = []
    reference: list[str] = []
    for meeting_id, sides in raw_meetings.items():
        if meeting_id.startswith("383fa9"):
            continue
        produced += [turn.text for turn in read_transcript(ctm_parts(meeting_id)).turns]
        reference += [turn["text"].strip() for turn in sides["final"]["ctm"]]
    assert share_of_reference_found(produced, reference) > 0.99
    assert len(produced) == pytest.approx(len(reference), rel=0.01)


def test_docx_reader_reproduces_the_corpus_segments_of_a_small_meeting(raw_meetings: dict) -> None:
    report = read_report(DATA / f"{SMALL_MEETING}.docx")
    reference = [doc["text"] for doc in raw_meetings[SMALL_MEETING]["final"]["doc"]]
    assert len(report.segments) == len(reference)
    assert share_of_reference_found([s.text for s in report.segments], reference) > 0.75
    assert report.segments[0].text.startswith(
        "<h> salon des maires d' ile-de-france </h> <h> challenge open innovation </h> "
        "<nom> une intervenante ( mathilde ) </nom> <p> [ commence au milieu d' une phrase ] </p>"
    )
    assert report.segments[1].text == reference[1]
    assert report.segments[1].speaker == "un intervenant ( animateur )"


def test_docx_segment_counts_match_the_corpus_for_nearly_every_meeting(
    raw_meetings: dict,
) -> None:
    produced: list[str] = []
    reference: list[str] = []
    meetings_with_equal_counts = 0
    for meeting_id, sides in raw_meetings.items():
        segments = read_report(DATA / f"{meeting_id}.docx").segments
        meetings_with_equal_counts += len(segments) == len(sides["final"]["doc"])
        produced += [segment.text for segment in segments]
        reference += [doc["text"] for doc in sides["final"]["doc"]]
    assert meetings_with_equal_counts >= 21
    assert share_of_reference_found(produced, reference) > 0.8


def test_docx_reader_accepts_uploaded_bytes() -> None:
    data = (DATA / f"{SMALL_MEETING}.docx").read_bytes()
    from_bytes = read_report(data, "upload.docx")
    assert from_bytes.source == "upload.docx"
    assert from_bytes.segments == read_report(DATA / f"{SMALL_MEETING}.docx").segments


# --- hand-written fixtures -----------------------------------------------------------------


def test_plain_text_report_starts_a_segment_at_each_speaker_line() -> None:
    report = read_report(FIXTURES / "report.txt")
    assert [segment.speaker for segment in report.segments] == [
        None,
        "m. dupont",
        "mme durand",
        "speaker 1",
    ]
    assert report.segments[1].text == (
        "<nom> m. dupont </nom> <p> bonjour à tous . la séance est ouverte . </p> "
        "<p> nous commençons par le budget . </p>"
    )
    assert report.segments[1].sentences == (
        "m. dupont",
        "bonjour à tous .",
        "la séance est ouverte .",
        "nous commençons par le budget .",
    )


def test_a_plain_text_report_without_speakers_is_cut_into_its_paragraphs() -> None:
    text = (
        "Le conseil a voté le budget.\nIl entre en vigueur en janvier.\n\n"
        "  \n\nLa séance est levée à midi.\n"
    )
    report = read_report(text.encode(), "notes.txt")

    assert report.segmented_by == "paragraphs"
    assert [segment.text for segment in report.segments] == [
        "<p> le conseil a voté le budget . il entre en vigueur en janvier . </p>",
        "<p> la séance est levée à midi . </p>",
    ]
    assert read_report(FIXTURES / "report.txt").segmented_by == "speakers"


def test_markdown_report_attaches_headings_to_the_following_intervention() -> None:
    report = read_report(FIXTURES / "report.md")
    assert [segment.speaker for segment in report.segments] == [
        "m. dupont",
        "mme durand",
        "mr. smith",
    ]
    assert report.segments[0].text.startswith("<h> conseil municipal </h> <h> ouverture </h>")
    assert report.segments[2].text == (
        "<h> budget </h> <nom> mr. smith </nom> <p> the budget is balanced . </p>"
    )
    assert "qu' est -ce que nous votons aujourd'hui ?" in report.segments[1].sentences


def test_srt_cues_of_one_speaker_form_one_turn() -> None:
    transcript = read_transcript(FIXTURES / "transcript.srt")
    assert [(t.speaker, t.start, t.end) for t in transcript.turns] == [
        ("SPEAKER_00", 1.0, 7.0),
        ("SPEAKER_01", 7.2, 10.0),
    ]
    assert transcript.turns[0].sentences == (
        "bonjour à tous , la séance est ouverte .",
        "nous commençons par le budget .",
    )


def test_vtt_voice_tags_give_speakers_and_hours_are_counted() -> None:
    transcript = read_transcript(FIXTURES / "transcript.vtt")
    assert [t.speaker for t in transcript.turns] == ["M. Dupont", "Mme Durand"]
    assert transcript.turns[0].text == (
        "bonjour à tous . la séance est ouverte . nous commençons par le budget ."
    )
    assert (transcript.turns[1].start, transcript.turns[1].end) == (3607.2, 3610.0)


def test_whisperx_json_keeps_word_scores_and_fills_missing_word_times() -> None:
    transcript = read_transcript(FIXTURES / "transcript_whisperx.json")
    assert [t.speaker for t in transcript.turns] == ["SPEAKER_00", "SPEAKER_01"]
    assert transcript.turns[0].text == "bonjour à tous . la séance est ouverte ."
    assert len(transcript.turns[0].words) == 7
    number = transcript.turns[1].words[2]
    assert (number.text, number.start, number.end) == ("2", 5.5, 7.0)
    assert transcript.turns[1].words[0].confidence == 0.7


def test_whisper_json_without_speakers_makes_one_turn_per_segment() -> None:
    transcript = read_transcript(FIXTURES / "transcript_whisper.json")
    assert [t.text for t in transcript.turns] == ["bonjour à tous .", "la séance est ouverte ."]
    assert transcript.turns[0].words[0].text == "Bonjour"
    assert transcript.turns[0].words[2].confidence == 0.97
    assert transcript.turns[1].speaker is None


def test_content_sniffing_reads_a_renamed_webvtt_file() -> None:
    data = (FIXTURES / "transcript.vtt").read_bytes()
    assert len(read_transcript(data, "captions.txt").turns) == 2


def test_utf8_bom_and_unambiguous_cp1252_are_accepted(tmp_path: Path) -> None:
    text = "M. Dupont : Très bien, l\u2019été arrive.\n"
    bom_file = tmp_path / "bom.txt"
    bom_file.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    cp1252_file = tmp_path / "windows.txt"
    cp1252_file.write_bytes(text.encode("cp1252"))
    expected = "<nom> m. dupont </nom> <p> très bien , l' été arrive . </p>"
    assert read_report(bom_file).segments[0].text == expected
    assert read_report(cp1252_file).segments[0].text == expected


# --- malformed input -------------------------------------------------------------------------


def broken_ctm(tmp_path: Path, line_number: int, replacement: str) -> Path:
    source = DATA / f"{SMALL_MEETING}.0.ctm"
    lines = source.read_text(encoding="utf-8").splitlines()
    lines[line_number - 1] = replacement
    target = tmp_path / f"{SMALL_MEETING}.0.ctm"
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target


def test_ctm_line_with_missing_field_is_reported_with_its_line(tmp_path: Path) -> None:
    path = broken_ctm(tmp_path, 7, "Enregistrement\t1\t1.69\tnous\t0.6")
    with pytest.raises(ReaderError) as caught:
        read_transcript(path)
    assert caught.value.path == str(path)
    assert caught.value.location == "line 7"
    assert "found 5" in caught.value.problem


def test_ctm_non_numeric_time_is_reported(tmp_path: Path) -> None:
    path = broken_ctm(tmp_path, 3, "Enregistrement\t1\tabc\t0.06\tsont\t1.0")
    with pytest.raises(ReaderError, match=r"line 3: start 'abc' is not a number"):
        read_transcript(path)


def test_ctm_non_utf8_bytes_are_reported_with_their_position(tmp_path: Path) -> None:
    path = tmp_path / "broken.ctm"
    path.write_bytes(
        b"rec\t1\t0.0\t0.0\t<start=0,end=1,speaker=S0>\t1.0\nrec\t1\t0.1\t0.2\t\x81\x9d\t1\n"
    )
    with pytest.raises(ReaderError) as caught:
        read_transcript(path)
    assert caught.value.location.startswith("line 2, byte ")
    assert "not UTF-8" in caught.value.problem


NINES = b"9" * 400
"""An hour that `float` reads as infinity."""


@pytest.mark.parametrize(
    ("filename", "content", "location", "problem"),
    [
        ("empty.srt", b"", "whole file", "empty"),
        ("bad.srt", b"1\n00:00:01,000 -> 00:00:02,000\nbonjour\n", "line 2", "expected a timing"),
        ("bad.vtt", b"WEBVTT\n\n00:01,000 --> 00:02,000\nbonjour\n", "line 3", "cue timing"),
        ("nohead.vtt", b"00:00:01.000 --> 00:00:02.000\nbonjour\n", "line 1", "WEBVTT"),
        ("bad.json", b'{"segments": [', "line 1, column 15", "invalid JSON"),
        ("none.json", b'{"segments": []}', "top level", "segments"),
        ("time.json", b'{"segments": [{"text": "a", "start": "x"}]}', "segments[0].start", "'x'"),
        ("blank.ctm", b"\n\n  \n", "whole file", "empty"),
        ("deep.json", b'{"segments": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "whole file",
         "nests too deeply"),
        ("huge.json", b'{"segments": [{"text": "a", "start": 1' + b"0" * 400 + b"}]}",
         "segments[0].start", "not a number of seconds"),
        ("nan.json", b'{"segments": [{"text": "a", "words": [{"word": "a", "score": NaN}]}]}',
         "segments[0].words[0]", "confidence nan is not a number"),
        ("nines.srt", b"1\n" + NINES + b":00:00,000 --> " + NINES + b":00:01,000\nbonjour\n",
         "line 2", "start time inf is past 168 hours"),
        ("late.srt", b"1\n169:00:00,000 --> 169:00:01,000\nbonjour\n", "line 2",
         "start time 608400 is past 168 hours"),
        ("reversed.srt",
         b"1\n00:00:01,000 --> 00:00:02,000\na\n\n2\n00:00:05,000 --> 00:00:04,000\nb\n",
         "line 6", "ends (4 s) before it starts (5 s)"),
        ("nines.vtt", b"WEBVTT\n\n" + NINES + b":00:00.000 --> " + NINES + b":00:01.000\nbonjour\n",
         "line 3", "start time inf is past"),
        ("reversed.vtt", b"WEBVTT\n\nNOTE x\n\ncue\n00:00:03.000 --> 00:00:02.500\nbonjour\n",
         "line 6", "ends (2.5 s) before it starts (3 s)"),
        ("negative.json", b'{"segments": [{"text": "a", "start": -1, "end": 2}]}',
         "segments[0].start", "start -1 is negative"),
        ("far.json", b'{"segments": [{"text": "a", "start": 0, "end": 1e300}]}',
         "segments[0].end", "end 1e+300 is past 168 hours"),
        ("reversed.json", b'{"segments": [{"text": "a b", "start": 0, "end": 9, "words": '
         b'[{"word": "a", "start": 1}, {"word": "b", "start": 3, "end": 2}]}]}',
         "segments[0].words[1]", "ends (2 s) before it starts (3 s)"),
        ("reversed_segment.json", b'{"segments": [{"text": "a", "start": 4, "end": 3}]}',
         "segments[0]", "ends (3 s) before it starts (4 s)"),
        ("inf.ctm", b"rec 1 0 0 <start=0,end=9,speaker=S0> 1\nrec 1 inf 0.1 mot 1\n",
         "line 2", "start 'inf' is not a number"),
        ("overflow.ctm", b"rec 1 0 0 <start=0,end=9,speaker=S0> 1\nrec 1 1 1e999 mot 1\n",
         "line 2", "duration '1e999' is not a number"),
        ("negative.ctm", b"rec 1 0 0 <start=0,end=9,speaker=S0> 1\nrec 1 2 -0.5 mot 1\n",
         "line 2", "duration -0.5 is negative"),
        ("nan.ctm", b"rec 1 0 0 <start=0,end=9,speaker=S0> 1\nrec 1 2 0.5 mot nan\n",
         "line 2", "confidence 'nan' is not a number"),
        ("reversed.ctm", b"rec 1 0 0 <start=7,end=6,speaker=S0> 1\nrec 1 2 0.5 mot 1\n",
         "line 1", "ends (6 s) before it starts (7 s)"),
        ("turn.ctm", b"rec 1 0 0 <start=-3,end=6,speaker=S0> 1\nrec 1 2 0.5 mot 1\n",
         "line 1", "turn start -3 is negative"),
    ],
)  # fmt: skip
def test_malformed_transcripts_raise_reader_errors(
    tmp_path: Path, filename: str, content: bytes, location: str, problem: str
) -> None:
    path = tmp_path / filename
    path.write_bytes(content)
    with pytest.raises(ReaderError) as caught:
        read_transcript(path)
    assert caught.value.location == location
    assert problem in caught.value.problem
    assert str(path) in str(caught.value)


def test_a_docx_that_is_not_a_zip_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "report.docx"
    path.write_text("this is not a word document", encoding="utf-8")
    with pytest.raises(ReaderError, match=r"not a readable \.docx"):
        read_report(path)


def test_a_truncated_docx_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "truncated.docx"
    shutil.copy(DATA / f"{SMALL_MEETING}.docx", path)
    path.write_bytes(path.read_bytes()[:2000])
    with pytest.raises(ReaderError) as caught:
        read_report(path)
    assert caught.value.path == str(path)


def test_a_report_with_only_blank_lines_has_no_segments(tmp_path: Path) -> None:
    path = tmp_path / "blank.md"
    path.write_text("#   \n\n**  **\n", encoding="utf-8")
    with pytest.raises(ReaderError, match="no report text"):
        read_report(path)


def test_json_segment_without_text_is_located(tmp_path: Path) -> None:
    path = tmp_path / "words.json"
    path.write_text(json.dumps({"segments": [{"text": "oui"}, {"start": 1.0}]}), encoding="utf-8")
    with pytest.raises(ReaderError) as caught:
        read_transcript(path)
    assert caught.value.location == "segments[1]"


# --- an English meeting, read with the English tokenizer -----------------------------------

ENGLISH = FIXTURES / "english"


def test_english_report_segments_speakers_and_headings_like_the_french_ones() -> None:
    report = read_report(ENGLISH / "council.md", language="en")
    assert [segment.speaker for segment in report.segments] == [
        "mrs. brown",
        "mr. green",
        "dr. white",
        "mrs. brown",
    ]
    assert report.segments[0].text.startswith(
        "<h> town council meeting </h> <h> opening </h> <nom> mrs. brown </nom> <p> good evening"
    )
    assert report.segments[2].sentences == (
        "parking",
        "dr. white",
        "parking downtown is scarce .",
        "drivers circle for twenty minutes looking for a space , e.g. on main st. near the "
        "u.s. post office .",
    )
    assert "we'll vote on the parking meters next month ." in report.segments[3].sentences
    assert "we start with the library's budget ." in report.segments[0].sentences


def test_the_french_tokenizer_would_split_the_english_report_differently() -> None:
    english = read_report(ENGLISH / "council.md", language="en")
    french = read_report(ENGLISH / "council.md", language="fr")
    assert french.segments[0].speaker == "mrs . brown"
    assert "e.g." not in french.segments[2].text.split()
    assert "e.g." in english.segments[2].text.split()


def test_english_subtitles_merge_one_speakers_cues_and_keep_contractions() -> None:
    transcript = read_transcript(ENGLISH / "council.srt", language="en")
    assert [(t.speaker, t.start, t.end) for t in transcript.turns] == [
        ("SPEAKER_00", 1.0, 7.5),
        ("SPEAKER_01", 8.0, 14.0),
        ("SPEAKER_02", 14.5, 17.0),
        ("SPEAKER_03", 17.5, 25.0),
        ("SPEAKER_00", 25.5, 30.0),
    ]
    assert transcript.turns[0].sentences == (
        "good evening everyone , the session is open .",
        "we start with the library's budget .",
    )
    assert transcript.turns[2].text == "can somebody close the window ? it's cold in here ."


def test_english_ctm_words_stay_whole() -> None:
    transcript = read_transcript(ENGLISH / "council.ctm", language="en")
    assert [turn.speaker for turn in transcript.turns] == ["S0", "S1", "S2", "S3", "S0"]
    assert transcript.turns[2].text == "can somebody close the window ? it's cold in here ."
    assert "20" in transcript.turns[3].text.split()
    assert transcript.turns[0].words[0].text == "good"


# --- speaker names without a title, and what a reading says of itself ----------------------


@pytest.mark.parametrize("extension", ["md", "txt"])
def test_bare_names_before_a_colon_open_interventions(extension: str) -> None:
    text = (
        "Council of 3 March\n\n"
        "Alice Brown: Good evening. The session is open.\n"
        "The vote was held: the budget passed.\n\n"
        "Ludwig van Beethoven : Thank you.\n"
        "Bob: At 10:30 we adjourn. See https://example.org: the minutes.\n"
        "A Very Long Committee Name Here: not a name.\n"
        "alice brown: not capitalised.\n"
    )
    report = read_report(text.encode(), f"notes.{extension}", language="en")

    assert report.segmented_by == "speakers"
    assert [segment.speaker for segment in report.segments] == [
        None,
        "alice brown",
        "ludwig van beethoven",
        "bob",
    ]
    assert "the vote was held : the budget passed ." in report.segments[1].sentences
    assert "not a name ." in report.segments[3].text
    assert report_summary(report).startswith(
        "4 segments, one per speaker intervention or titled section; a line opens an "
        "intervention when it starts with a speaker's name and a colon"
    )


def test_bare_names_stay_text_in_subtitles() -> None:
    srt = b"1\n00:00:01,000 --> 00:00:02,000\nNote: the microphone is off.\n"
    assert read_transcript(srt, "cues.srt").turns[0].speaker is None


def test_a_vtt_says_how_many_cues_made_its_turns() -> None:
    transcript = read_transcript(FIXTURES / "transcript.vtt")

    assert (transcript.pieces, len(transcript.turns)) == (3, 2)
    assert transcript_summary(transcript) == (
        "2 turns from 3 timed pieces (cues or segments): consecutive pieces of one speaker "
        "make one turn"
    )
    whisper = read_transcript(FIXTURES / "transcript_whisper.json")
    assert transcript_summary(whisper) == f"{len(whisper.turns)} turns"
