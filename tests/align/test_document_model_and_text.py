from __future__ import annotations

import dataclasses

import pytest

from workers.align.document_model import ReaderError, Turn, Word
from workers.align.text import first_tagged, scoring_sentences, split_sentences, strip_tags
from workers.align.tokenizers import ENGLISH, FRENCH, GENERIC, SPANISH, tokenizer_for

tokenize = FRENCH.tokenize
normalise_asr_word = FRENCH.normalise_asr_word


def test_turn_word_count_counts_whitespace_tokens() -> None:
    turn = Turn("0_0_0", "bonjour , à tous .", ("bonjour , à tous .",), None, 0.0, 1.0, 0)
    assert turn.word_count == 5


def test_model_objects_are_frozen() -> None:
    word = Word("bonjour", 0.0, 0.4, 0.9)
    with pytest.raises(dataclasses.FrozenInstanceError):
        word.text = "bonsoir"  # type: ignore[misc]


def test_reader_error_message_names_path_location_and_problem() -> None:
    error = ReaderError("meeting.ctm", "line 12", "start 'x' is not a number")
    assert (error.path, error.location, error.problem) == (
        "meeting.ctm",
        "line 12",
        "start 'x' is not a number",
    )
    assert str(error) == "meeting.ctm: line 12: start 'x' is not a number"
    assert isinstance(error, ValueError)


def test_split_sentences_breaks_after_punctuation_and_closing_tags() -> None:
    text = "<h> titre </h> <nom> m. dupont </nom> <p> oui . vraiment ? </p> <p> non ! </p>"
    assert split_sentences(text) == [
        "<h> titre </h>",
        "<nom> m. dupont </nom>",
        "<p> oui .",
        "vraiment ? </p>",
        "<p> non ! </p>",
    ]


def test_runs_of_end_tokens_stay_with_the_sentence_they_close() -> None:
    assert split_sentences("a . . b ? ! c") == ["a . .", "b ? !", "c"]


def test_strip_tags_removes_markup_and_unknown_words() -> None:
    assert strip_tags("<p> il y a <unk> trois <table> points </table> </p>") == (
        "il y a trois points"
    )


def test_scoring_sentences_drop_sentences_that_were_only_tags() -> None:
    assert scoring_sentences("<p> oui . </p> <table> </table> <p> <unk> non </p>") == (
        "oui .",
        "non",
    )


def test_tokenize_reproduces_the_corpus_french_tokenisation() -> None:
    raw = (
        "Qu\u2019est-ce que l\u2019on vote\u00a0? "
        "M. Dupont (maire), etc. Aujourd\u2019hui, 50\u00a0%."
    )
    assert tokenize(raw) == (
        "qu' est -ce que l' on vote ? m. dupont ( maire ) , etc. aujourd'hui , 50 % ."
    )


def test_tokenize_keeps_elided_conjunctions_whole_like_the_corpus() -> None:
    assert tokenize("Puisqu'il pleut, a-t-il dit.") == "puisqu'il pleut , a -t-il dit ."


@pytest.mark.parametrize(
    ("asr_word", "corpus_tokens"),
    [
        ("aujourd'", ["aujourd", "'"]),
        ("l'", ["l'"]),
        ("est-ce", ["est", "-ce"]),
        ("Rendez-vous", ["rendez", "-vous"]),
        ("peut-être", ["peut-être"]),
        ("t2", ["t", "2"]),
        ("1er", ["1er"]),
        ("<unk>", ["<unk>"]),
    ],
)
def test_normalise_asr_word_matches_corpus_tokens(asr_word: str, corpus_tokens: list[str]) -> None:
    assert normalise_asr_word(asr_word) == corpus_tokens


def test_first_tagged_returns_the_speaker_name() -> None:
    assert first_tagged("<h> a </h> <nom> mme durand </nom> <p> oui </p>", "nom") == "mme durand"
    assert first_tagged("<p> oui </p>", "nom") is None


@pytest.mark.parametrize(
    ("language", "tokenizer"),
    [
        ("fr", FRENCH),
        ("fr-CA", FRENCH),
        ("FR_be", FRENCH),
        ("", FRENCH),
        (None, FRENCH),
        ("en", ENGLISH),
        ("en-GB", ENGLISH),
        ("es", SPANISH),
        ("es-MX", SPANISH),
        ("de", GENERIC),
    ],
)
def test_the_tokenizer_is_chosen_by_the_primary_language_subtag(language, tokenizer) -> None:
    assert tokenizer_for(language) is tokenizer


def test_english_keeps_contractions_hyphens_and_ordinals_whole() -> None:
    raw = (
        "Mr. Smith said: \u201cWe don\u2019t vote on the well-known 4th item, e.g. the U.S. "
        "plan (at 5 o'clock)\u2026 It's the students' call.\u201d"
    )
    assert ENGLISH.tokenize(raw) == (
        "mr. smith said : \" we don't vote on the well-known 4th item , e.g. the u.s. "
        "plan ( at 5 o'clock ) ... it's the students' call . \""
    )


def test_the_french_rules_would_have_cut_those_english_words() -> None:
    raw = "A hands-on add-on, d'you see? 4th floor"
    assert FRENCH.tokenize(raw) == "a hands -on add -on , d' you see ? 4th floor"
    assert ENGLISH.tokenize(raw) == "a hands-on add-on , d'you see ? 4th floor"
    assert FRENCH.normalise_asr_word("4th") == ["4", "th"]


@pytest.mark.parametrize(
    ("asr_word", "tokens"),
    [
        ("Don't", ["don't"]),
        ("students'", ["students'"]),
        ("mp3", ["mp3"]),
        ("4th", ["4th"]),
        ("well-known", ["well-known"]),
        ("<unk>", ["<unk>"]),
    ],
)
def test_english_asr_words_stay_whole(asr_word: str, tokens: list[str]) -> None:
    assert ENGLISH.normalise_asr_word(asr_word) == tokens


def test_english_sentences_end_at_a_stop_but_not_at_an_abbreviation() -> None:
    text = ENGLISH.tokenize("Dr. Jones arrived at 9 a.m. today. Did she vote? Yes!")
    assert split_sentences(text) == [
        "dr. jones arrived at 9 a.m. today .",
        "did she vote ?",
        "yes !",
    ]


def test_spanish_opening_marks_come_off_their_word_and_titles_keep_their_dot() -> None:
    text = SPANISH.tokenize("La Sra. López preguntó: ¿Está encendido? ¡Sí, gracias!")
    assert split_sentences(text) == [
        "la sra. lópez preguntó : ¿ está encendido ?",
        "¡ sí , gracias !",
    ]


def test_an_opening_mark_is_punctuation_in_any_language() -> None:
    assert GENERIC.tokenize("¿Qué? ¡Vale!") == "¿ qué ? ¡ vale !"
