"""Time windows on real CTM files, on subtitles without word times, and on hand-made turns."""

from __future__ import annotations

from pathlib import Path

import pytest

from workers.align.document_model import ReaderError, Transcript, Turn, Word
from workers.align.podcasts.time_windows import WindowConfig, window_number, window_transcript
from workers.align.readers import read_transcript, transcript_from_texts
from workers.align.text import scoring_sentences

public_meetings = pytest.importorskip("public_meetings")

DATA = Path(public_meetings.data_root)
FIXTURES = Path(__file__).parents[1] / "fixtures"
MULTI_PART_MEETING = "199073d27fc61f6a76cb1f9c1d977aa6"
SMALL_MEETING = "0b9ec6f049e68d4a35fae75792e2a84e"


def all_words(transcript: Transcript) -> list[Word]:
    return [word for turn in transcript.turns for word in turn.words]


@pytest.fixture(scope="module")
def meeting() -> Transcript:
    return read_transcript(sorted(DATA.glob(f"{MULTI_PART_MEETING}.*.ctm")))


@pytest.mark.parametrize("seconds", [30.0, 7.5])
def test_windows_cover_every_word_once_in_order(meeting: Transcript, seconds: float) -> None:
    windows = window_transcript(meeting, WindowConfig(seconds))
    produced = all_words(windows)
    assert produced == all_words(meeting)
    assert len({id(word) for word in produced}) == len(produced), "a word in two windows"
    tokens = " ".join(turn.text for turn in windows.turns).split()
    assert tokens == " ".join(turn.text for turn in meeting.turns).split()


@pytest.mark.parametrize("seconds", [30.0, 7.5])
def test_windows_respect_their_size_and_never_split_a_word(seconds: float) -> None:
    config = WindowConfig(seconds)
    transcript = read_transcript(DATA / f"{SMALL_MEETING}.0.ctm")
    windows = window_transcript(transcript, config)
    numbers = []
    for turn in windows.turns:
        number = window_number(turn.start, config)
        numbers.append(number)
        assert number * seconds <= turn.start < (number + 1) * seconds
        spelled = [word for word in turn.words if any(char.isalnum() for char in word.text)]
        assert all(window_number(word.start, config) == number for word in spelled)
        assert turn.start == min(word.start for word in turn.words)
        assert turn.end == max(word.end for word in turn.words)
    assert numbers == sorted(set(numbers)), "windows are in time order, one unit per window"
    spoken = {
        window_number(word.start, config)
        for word in all_words(transcript)
        if any(char.isalnum() for char in word.text)
    }
    assert set(numbers) == spoken, "exactly the windows with spoken words become units"


def test_each_recording_of_a_ctm_in_parts_has_its_own_windows(meeting: Transcript) -> None:
    """Each part's clock starts at 0: its windows follow the previous part's instead of
    merging with them."""
    parts = sorted(DATA.glob(f"{MULTI_PART_MEETING}.*.ctm"))
    assert len(parts) == 3
    separately = [
        (turn.text, turn.start, turn.end)
        for part in parts
        for turn in window_transcript(read_transcript(part)).turns
    ]
    together = [(turn.text, turn.start, turn.end) for turn in window_transcript(meeting).turns]
    assert together == separately


def test_windows_are_renumbered_turns_with_rebuilt_sentences(meeting: Transcript) -> None:
    windows = window_transcript(meeting)
    assert len(windows.turns) < len(meeting.turns) or len(windows.turns) > 10
    for position, turn in enumerate(windows.turns):
        assert (turn.id, turn.index) == (f"0_{position}_0", position)
        assert turn.sentences == scoring_sentences(turn.text)
    assert windows.source == meeting.source


def test_a_word_stays_whole_with_the_token_that_spells_it() -> None:
    """The reader wrote "aujourd'hui" as one token over two recognised words; the window
    boundary between them does not cut it."""
    words = (
        Word("aujourd'", 29.5, 29.9, 1.0),
        Word("hui", 30.1, 30.4, 1.0),
        Word("il", 30.5, 30.6, 1.0),
        Word("pleut", 30.6, 31.0, 1.0),
        Word(".", 31.0, 31.1, 1.0),
    )
    turn = Turn("0_0_0", "aujourd'hui il pleut .", (), "S1", 29.5, 31.1, 0, words)
    windows = window_transcript(Transcript((turn,), "hand"))
    assert [window.text for window in windows.turns] == ["aujourd'hui", "il pleut ."]
    assert [len(window.words) for window in windows.turns] == [2, 3]
    assert windows.turns[0].end == pytest.approx(30.4)


def test_turns_without_word_times_spread_their_tokens_over_their_times() -> None:
    transcript = read_transcript(FIXTURES / "english" / "council.srt", language="en")
    assert not all_words(transcript)
    windows = window_transcript(transcript, WindowConfig(10.0))
    tokens = " ".join(turn.text for turn in windows.turns).split()
    assert tokens == " ".join(turn.text for turn in transcript.turns).split()
    first_cue = transcript.turns[0]
    assert windows.turns[0].start == first_cue.start
    for window in windows.turns:
        number = window_number(window.start, WindowConfig(10.0))
        assert number * 10 <= window.start < (number + 1) * 10
        assert window.words == ()
    cue = transcript.turns[1]  # 17 tokens over 8 s to 14 s: 6 start before 10 s
    assert (cue.start, cue.end, len(cue.text.split())) == (8.0, 14.0, 17)
    assert windows.turns[0].text.endswith(" " + " ".join(cue.text.split()[:6]))
    assert windows.turns[1].text.startswith(" ".join(cue.text.split()[6:]))
    assert windows.turns[1].start == pytest.approx(8 + 6 * 6 / 17)


def test_timed_and_word_timed_turns_mix_and_the_majority_speaker_wins() -> None:
    turns = (
        Turn("0_0_0", "a b c", (), "A", 0.0, 3.0, 0),
        Turn(
            "0_1_0",
            "d e f g",
            (),
            "B",
            3.0,
            4.0,
            1,
            tuple(Word(t, 3.0 + i * 0.2, 3.2 + i * 0.2, 1.0) for i, t in enumerate("defg")),
        ),
        Turn("0_2_0", "h i", (), "A", 20.0, 22.0, 2),
    )
    windows = window_transcript(Transcript(turns, "hand"), WindowConfig(10.0))
    assert [(w.text, w.speaker, w.start, w.end) for w in windows.turns] == [
        ("a b c d e f g", "B", 0.0, pytest.approx(3.8)),
        ("h i", "A", 20.0, 22.0),
    ]


def test_an_untimed_transcript_is_refused_naming_the_problem() -> None:
    transcript = transcript_from_texts(["bonjour à tous", "la séance est ouverte"])
    with pytest.raises(ReaderError, match="turn 1: has neither word times nor start and end"):
        window_transcript(transcript)


@pytest.mark.parametrize("seconds", [0.0, -5.0, float("nan"), float("inf")])
def test_a_window_lasts_a_positive_finite_time(seconds: float) -> None:
    with pytest.raises(ValueError, match="positive number of seconds"):
        WindowConfig(seconds)


def test_whisperx_words_time_the_tokens_their_letters_spell() -> None:
    """ "j'ai" is one recognised word and two French tokens; "2" has no time of its own (the
    reader gives it its segment's, 5.5 to 7.0 s)."""
    transcript = read_transcript(FIXTURES / "transcript_whisperx.json")
    windows = window_transcript(transcript, WindowConfig(2.0))
    assert [(w.text, w.start, w.end, w.speaker) for w in windows.turns] == [
        ("bonjour à tous .", 1.0, 3.0, "SPEAKER_00"),
        ("la séance est", 3.2, 4.1, "SPEAKER_00"),
        ("ouverte . merci , j' ai 2", 4.1, 7.0, "SPEAKER_01"),
        ("questions .", 6.3, 7.0, "SPEAKER_01"),
    ]
    assert [word.text for word in windows.turns[2].words] == ["ouverte.", "Merci,", "j'ai", "2"]
    assert all_words(windows) == all_words(transcript)


def test_a_text_edited_apart_from_its_words_is_spread_over_them() -> None:
    words = (Word("helo", 0.0, 0.5, 1.0), Word("world", 40.0, 40.5, 1.0))
    turn = Turn("0_0_0", "hello big world", (), None, 0.0, 40.5, 0, words)
    windows = window_transcript(Transcript((turn,), "hand"))
    assert [(w.text, w.words) for w in windows.turns] == [
        ("hello big", (words[0],)),
        ("world", (words[1],)),
    ]
