"""Cleaning and measuring corpus-form text, and the split rule, on strings from the corpus."""

import pytest

from workers.align.pairs.cleaning import Cleaning, clean
from workers.align.pairs.split import split_of

SEGMENT = (
    "<h> ordre du jour </h> <nom> m. dupont , maire </nom> <p> bonjour à tous . "
    "nous commençons ? </p> <p> merci . </p>"
)
TURN = "euh <unk> bonjour à tous . nous <unk> commençons"


def test_nothing_removed_keeps_the_text_and_counts_tokens_without_markup():
    result = clean(SEGMENT, Cleaning())

    assert result.text == SEGMENT
    assert result.words == 16
    # "ordre du jour", "m. dupont , maire", "bonjour à tous .", "nous commençons ?", "merci ."
    assert result.sentences == 5


def test_removing_tags_keeps_their_content_and_the_sentence_count():
    result = clean(SEGMENT, Cleaning(remove_tags=True))

    assert result.text == (
        "ordre du jour m. dupont , maire bonjour à tous . nous commençons ? merci ."
    )
    assert (result.words, result.sentences) == (16, 5)


def test_removing_names_and_headings_drops_their_spans_and_sentences():
    result = clean(SEGMENT, Cleaning(remove_speaker_names=True, remove_headings=True))

    assert result.text == "<p> bonjour à tous . nous commençons ? </p> <p> merci . </p>"
    assert (result.words, result.sentences) == (9, 3)


def test_an_unclosed_name_ends_at_the_next_opening_tag():
    result = clean("<nom> m. dupont <p> bonjour . </p>", Cleaning(remove_speaker_names=True))

    assert result.text == "<p> bonjour . </p>"


def test_unk_is_never_a_word_and_goes_only_when_asked():
    kept, removed = clean(TURN, Cleaning()), clean(TURN, Cleaning(remove_unk=True))

    assert kept.text == TURN
    assert removed.text == "euh bonjour à tous . nous commençons"
    assert kept.words == removed.words == 7
    assert kept.sentences == removed.sentences == 2


def test_a_sentence_left_without_words_is_not_counted():
    assert clean("<p> <unk> </p> <p> bonjour . </p>", Cleaning()).sentences == 1


@pytest.mark.parametrize("meeting", ["public_meetings:686239f0", "document-7", "x"])
def test_a_meeting_always_gets_the_same_split_and_the_ratios_bound_it(meeting):
    first = split_of(meeting, seed="s", valid_ratio=0.3, test_ratio=0.3)

    assert first == split_of(meeting, seed="s", valid_ratio=0.3, test_ratio=0.3)
    assert split_of(meeting, seed="s", valid_ratio=0.0, test_ratio=0.0) == "train"
    assert split_of(meeting, seed="s", valid_ratio=0.0, test_ratio=1.0) == "test"
    assert split_of(meeting, seed="s", valid_ratio=1.0, test_ratio=0.0) == "validation"


def test_ratios_give_roughly_their_share_of_many_meetings():
    splits = [
        split_of(f"m{index}", seed="tandem", valid_ratio=0.1, test_ratio=0.2)
        for index in range(5000)
    ]

    assert 0.08 < splits.count("validation") / 5000 < 0.12
    assert 0.18 < splits.count("test") / 5000 < 0.22
