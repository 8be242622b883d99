"""ROUGE-2 recall against a naive reference and against `rouge-score`, on real text."""

from __future__ import annotations

import random
import unicodedata
from pathlib import Path

import pytest
from rouge_score import rouge_scorer

from workers.align.corpus import load_public_meetings
from workers.align.podcasts.rouge_recall import rouge2_recall, rouge_tokens
from workers.align.readers import read_report, read_transcript

ENGLISH = Path(__file__).parents[1] / "fixtures" / "english"
MEETINGS = ["0b9ec6f049e68d4a35fae75792e2a84e", "2130e27aed45abb9e7182295fc940cff"]


def naive_rouge2_recall(candidate: list[str], reference: list[str]) -> float:
    """Each reference bigram in turn takes one matching candidate bigram out of a list."""
    wanted = [(reference[i], reference[i + 1]) for i in range(len(reference) - 1)]
    available = [(candidate[i], candidate[i + 1]) for i in range(len(candidate) - 1)]
    found = 0
    for bigram in wanted:
        if bigram in available:
            available.remove(bigram)
            found += 1
    return found / len(wanted) if wanted else 0.0


class OurTokenizer:
    """`rouge-score`'s tokenizer interface around ours."""

    def tokenize(self, text: str) -> list[str]:
        return list(rouge_tokens(text))


def turn_sentence_pairs(limit_per_meeting: int = 4000) -> list[tuple[str, str]]:
    """Real transcript turns against real report sentences, most sharing some bigram."""
    pytest.importorskip("public_meetings")
    pairs = []
    for meeting in load_public_meetings(MEETINGS):
        sentences = [s for segment in meeting.report.segments for s in segment.sentences]
        for turn in meeting.transcript.turns:
            pairs.extend((turn.text, sentence) for sentence in sentences)
    random.Random(16).shuffle(pairs)
    return pairs[: limit_per_meeting * len(MEETINGS)]


def test_tokens_are_lowercased_unicode_words() -> None:
    assert rouge_tokens("L'année « problématique » 2019, Grt-Gaz_x !") == (
        "l",
        "année",
        "problématique",
        "2019",
        "grt",
        "gaz",
        "x",
    )


def test_recall_is_zero_against_a_reference_without_a_bigram() -> None:
    assert rouge2_recall(["a", "b"], ["a"]) == 0.0
    assert rouge2_recall(["a", "b"], []) == 0.0
    assert rouge2_recall([], ["a", "b"]) == 0.0


def test_repeated_bigrams_are_clipped() -> None:
    assert rouge2_recall(["a", "b", "a", "b", "a", "b"], ["a", "b", "c"]) == 0.5
    assert rouge2_recall(["a", "b", "c", "a", "b"], ["a", "b", "a", "b"]) == pytest.approx(2 / 3)


def test_recall_equals_the_naive_reference_on_random_and_real_text() -> None:
    generator = random.Random(2)
    for _ in range(2000):
        candidate = [generator.choice("abcd") for _ in range(generator.randint(0, 12))]
        reference = [generator.choice("abcd") for _ in range(generator.randint(0, 8))]
        assert rouge2_recall(candidate, reference) == pytest.approx(
            naive_rouge2_recall(candidate, reference)
        )
    for turn, sentence in turn_sentence_pairs(500):
        candidate, reference = list(rouge_tokens(turn)), list(rouge_tokens(sentence))
        assert rouge2_recall(candidate, reference) == pytest.approx(
            naive_rouge2_recall(candidate, reference)
        )


def test_recall_equals_rouge_score_with_our_tokenizer_on_french_meetings() -> None:
    scorer = rouge_scorer.RougeScorer(["rouge2"], tokenizer=OurTokenizer())
    pairs = turn_sentence_pairs()
    overlapping = 0
    for turn, sentence in pairs:
        ours = rouge2_recall(rouge_tokens(turn), rouge_tokens(sentence))
        theirs = scorer.score(target=sentence, prediction=turn)["rouge2"].recall
        assert ours == pytest.approx(theirs, abs=1e-12), (turn, sentence)
        overlapping += ours > 0
    assert overlapping > len(pairs) / 10, "the comparison covers pairs that share bigrams"


def ascii_folded(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def test_recall_equals_rouge_score_with_its_own_tokenizer_on_ascii_text() -> None:
    """On ASCII text our tokens are `rouge-score`'s default ones: the English council
    fixtures as written, and the meetings with their accents folded away."""
    scorer = rouge_scorer.RougeScorer(["rouge2"])
    transcript = read_transcript(ENGLISH / "council.srt", language="en")
    report = read_report(ENGLISH / "council.md", language="en")
    pairs = [
        (turn.text, sentence)
        for turn in transcript.turns
        for segment in report.segments
        for sentence in segment.sentences
    ]
    pairs += [(ascii_folded(turn), ascii_folded(text)) for turn, text in turn_sentence_pairs()]
    overlapping = 0
    for turn, sentence in pairs:
        assert turn.isascii()
        assert sentence.isascii()
        ours = rouge2_recall(rouge_tokens(turn), rouge_tokens(sentence))
        theirs = scorer.score(target=sentence, prediction=turn)["rouge2"].recall
        assert ours == pytest.approx(theirs, abs=1e-12), (turn, sentence)
        overlapping += ours > 0
    assert overlapping > len(pairs) / 10
