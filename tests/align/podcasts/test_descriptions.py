"""Descriptions: read into sentences, normalised, scored by IDF, cleaned."""

from __future__ import annotations

import math

import pytest

from workers.align.document_model import ReaderError
from workers.align.podcasts.descriptions import (
    CleaningConfig,
    DescriptionVocabulary,
    clean_description,
    description_vocabulary,
    normalised_tokens,
)
from workers.align.readers import InputFile, read_description, read_description_file
from workers.align.tokenizers import ENGLISH

PAPER_EXAMPLE = """The Guys are back for another Triple Threat Sports Podcast! This time \
UTXJGTHEDON is giving out all the smoke as his Los Angeles Rams is heading to the Super \
Bowl to face the New England Patriots.

\u2014 Support this podcast: https://anchor.fm/triplethreatsportspodcast
"""


def test_a_description_becomes_one_segment_per_sentence() -> None:
    report = read_description_file(PAPER_EXAMPLE.encode(), "episode.txt", "en")
    assert report.segmented_by == "sentences"
    assert [segment.text for segment in report.segments] == [
        "the guys are back for another triple threat sports podcast !",
        "this time utxjgthedon is giving out all the smoke as his los angeles rams is heading "
        "to the super bowl to face the new england patriots .",
        "support this podcast : https://anchor.fm/triplethreatsportspodcast",
    ]
    assert [segment.id for segment in report.segments] == ["0_0_0", "0_1_0", "0_2_0"]
    assert all(segment.sentences == (segment.text,) for segment in report.segments)
    assert all(segment.speaker is None for segment in report.segments)


def test_markdown_headings_list_items_and_links_end_sentences() -> None:
    markdown = (
        "# Episode 12\n"
        "We talk about **dragons** and\nthe people who hunt them.\n\n"
        "- Follow us on [Twitter](https://twitter.com/show)\n"
        "- Music by Kevin\n"
    )
    report = read_description(InputFile("episode.md", markdown.encode()), ENGLISH)
    assert [segment.text for segment in report.segments] == [
        "episode 12",
        "we talk about dragons and the people who hunt them .",
        "follow us on twitter https://twitter.com/show",
        "music by kevin",
    ]


@pytest.mark.parametrize("content", [b"", b"  \n\n", b"# \n\n- \n"])
def test_an_empty_description_is_refused(content: bytes) -> None:
    with pytest.raises(ReaderError, match=r"episode\.md: whole file: "):
        read_description(InputFile("episode.md", content), ENGLISH)


def test_links_addresses_names_tags_numbers_and_long_tokens_become_placeholders() -> None:
    sentence = (
        "Write to Show.Team@example.org, follow @tandem_fm #podcasts (http://x.io/a?b=1) "
        "www.show.com anchor.fm/show in 2024, ep3 Aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"
    )
    assert normalised_tokens(sentence) == (
        "write",
        "to",
        "<email>",
        "follow",
        "<username>",
        "<hashtag>",
        "<url>",
        "<url>",
        "<url>",
        "in",
        "<number>",
        "<number>",
        "<long>",
    )
    assert normalised_tokens("twenty-six letters", CleaningConfig(max_token_chars=5)) == (
        "<long>",
        "six",
        "<long>",
    )


def test_only_frequent_and_specific_words_count() -> None:
    """20 episodes: "support" in every one (IDF 0), "dragons" 5 times in 2 (IDF ln 10),
    "knights" 4 times in 2 (too rare), "castle" 10 times in 10 (IDF ln 2, below 1.5)."""
    descriptions: list[list[str]] = [["support this podcast"] for _ in range(20)]
    descriptions[0].append("dragons dragons dragons knights knights")
    descriptions[1].append("dragons dragons knights knights")
    for episode in range(10):
        descriptions[episode].append("castle")
    vocabulary = description_vocabulary(descriptions)
    assert vocabulary.descriptions == 20
    assert vocabulary.idf == {"dragons": pytest.approx(math.log(10))}
    looser = description_vocabulary(descriptions, CleaningConfig(min_count=4, min_idf=0.5))
    assert looser.idf == {
        "dragons": pytest.approx(math.log(10)),
        "knights": pytest.approx(math.log(10)),
        "castle": pytest.approx(math.log(2)),
    }


def test_sentences_below_sigma_are_dropped_and_those_above_kept() -> None:
    vocabulary = DescriptionVocabulary(idf={"dragons": 3.0, "<url>": 2.0}, descriptions=100)
    scored = clean_description(
        [
            "Dragons and more dragons, dragons!",  # 9.0
            "Dragons, dragons, dragons: https://a.fm/x",  # 11.0
            "Support this podcast",  # 0.0
            "dragons dragons http://x.io dragons dragons",  # 14.0
        ],
        vocabulary,
    )
    assert [sentence.salience for sentence in scored] == [9.0, 11.0, 0.0, 14.0]
    assert [sentence.kept for sentence in scored] == [False, True, False, True]
    assert scored[1].text == "Dragons, dragons, dragons: https://a.fm/x"
    at_sigma = clean_description(["dragons dragons dragons"], vocabulary, CleaningConfig(sigma=9))
    assert at_sigma[0].kept


def test_on_a_tiny_corpus_no_word_counts() -> None:
    """With four descriptions an IDF is at most ln 4 < 1.5: cleaning drops every sentence."""
    descriptions = [["dragons " * 10 + "in the castle"]] + [["knights"]] * 3
    vocabulary = description_vocabulary(descriptions)
    assert vocabulary.idf == {}
    assert not any(s.kept for s in clean_description(descriptions[0], vocabulary))
