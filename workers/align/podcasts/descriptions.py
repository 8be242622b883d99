"""Cleaning creator descriptions before they serve as references (podcast paper, section 2.2).

Descriptions carry boilerplate ("Support this podcast: https://anchor.fm/...", social links,
sponsor lines) that no part of the episode says. Rather than drop whole noisy descriptions,
the paper drops their sentences whose salience, the sum of their words' IDF over the corpus's
descriptions, is below sigma = 10: words every episode repeats weigh nothing. Before counting,
URLs, e-mail addresses, @usernames, #hashtags, numbers and tokens over 25 characters become
placeholders, so that two links or two dates are the same (frequent, hence uninformative)
word; and only words seen at least 5 times in the corpus with an IDF above 1.5 count.

IDF here is ln(N / df) over N descriptions, df the descriptions holding the word (the paper
does not give its formula; this is the textbook one). It follows that on a tiny corpus
cleaning drops everything: with N descriptions no word can have an IDF above ln(N), so with
4 or fewer (ln 4 < 1.5) no word counts and every sentence scores 0; a word also needs 5
occurrences. The rule is meant for hundreds of descriptions of one show or platform.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

URL, EMAIL, USERNAME, HASHTAG, NUMBER, LONG = (
    "<url>",
    "<email>",
    "<username>",
    "<hashtag>",
    "<number>",
    "<long>",
)
PLACEHOLDERS = (URL, EMAIL, USERNAME, HASHTAG, NUMBER, LONG)

_URL = re.compile(
    r"^(?:[a-z][a-z0-9+.-]*://\S+"  # scheme://...
    r"|www\.\S+"
    r"|(?:[\w-]+\.)+[a-z]{2,}/\S*"  # anchor.fm/show
    r"|(?:[\w-]+\.)+(?:com|org|net|fm|io|co|fr|ly|me|tv|be)$)",  # bare domains
    re.IGNORECASE,
)
_EMAIL = re.compile(r"^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$")
_USERNAME = re.compile(r"^@\w+$")
_HASHTAG = re.compile(r"^#\w+$")
_WORD = re.compile(r"[^\W_]+")
_EDGE_PUNCTUATION = "\"'()[]{}<>,;:!?.\u2026\u00ab\u00bb\u201c\u201d\u2018\u2019"


@dataclass(frozen=True)
class CleaningConfig:
    sigma: float = 10.0
    """A sentence is kept when its salience (sum of counted word IDFs) is at least this."""
    min_count: int = 5
    """A word counts only when seen at least this many times in the corpus's descriptions."""
    min_idf: float = 1.5
    """... and when its IDF is above this."""
    max_token_chars: int = 25
    """Longer tokens (hashes, glued URLs, keyboard mashing) become one placeholder."""


def normalised_tokens(sentence: str, config: CleaningConfig = CleaningConfig()) -> tuple[str, ...]:
    """Lower-cased words with URLs, e-mails, @usernames, #hashtags, numbers and tokens over
    `max_token_chars` characters replaced by placeholders (`PLACEHOLDERS`)."""
    tokens: list[str] = []
    for chunk in sentence.split():
        stripped = chunk.strip(_EDGE_PUNCTUATION)
        if _EMAIL.match(stripped):
            tokens.append(EMAIL)
        elif _URL.match(stripped):
            tokens.append(URL)
        elif _USERNAME.match(stripped):
            tokens.append(USERNAME)
        elif _HASHTAG.match(stripped):
            tokens.append(HASHTAG)
        else:
            tokens.extend(_word_token(word, config) for word in _WORD.findall(chunk.lower()))
    return tuple(tokens)


def _word_token(word: str, config: CleaningConfig) -> str:
    if len(word) > config.max_token_chars:
        return LONG
    if any(char.isdigit() for char in word):
        return NUMBER
    return word


@dataclass(frozen=True)
class DescriptionVocabulary:
    idf: Mapping[str, float]
    """Only words seen >= min_count times and with idf > min_idf: the words that count."""
    descriptions: int


def description_vocabulary(
    descriptions: Sequence[Sequence[str]], config: CleaningConfig = CleaningConfig()
) -> DescriptionVocabulary:
    """IDF over descriptions (one item per episode, each its sentences): a word in every
    episode's description is boilerplate whatever its count within one."""
    occurrences: Counter[str] = Counter()
    holding: Counter[str] = Counter()
    for description in descriptions:
        words = [token for sentence in description for token in normalised_tokens(sentence, config)]
        occurrences.update(words)
        holding.update(set(words))
    total = len(descriptions)
    idf = {
        word: math.log(total / count)
        for word, count in holding.items()
        if occurrences[word] >= config.min_count and math.log(total / count) > config.min_idf
    }
    return DescriptionVocabulary(idf=idf, descriptions=total)


@dataclass(frozen=True)
class ScoredSentence:
    text: str
    salience: float
    kept: bool


def clean_description(
    sentences: Sequence[str],
    vocabulary: DescriptionVocabulary,
    config: CleaningConfig = CleaningConfig(),
) -> tuple[ScoredSentence, ...]:
    """Every sentence with its salience (the IDF of each counted word occurrence, summed) and
    whether it is kept (salience >= sigma); dropped sentences are returned too, so a lead sees
    what cleaning removes before it is used."""
    scored = []
    for sentence in sentences:
        salience = sum(
            vocabulary.idf.get(token, 0.0) for token in normalised_tokens(sentence, config)
        )
        scored.append(ScoredSentence(sentence, salience, salience >= config.sigma))
    return tuple(scored)
