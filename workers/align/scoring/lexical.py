"""Word vectors that need no training: a word's stem as a fixed random direction, weighted by
how rare the word is in its language.

A project of one to three documents has too little text to train word2vec on: vectors
trained on one meeting put most pairs of sentences close together, and the turn path then
piles a meeting's turns onto one segment (65.7 % of turns right over the 22 public_meetings
meetings aligned one at a time, against 78.4 % with vectors trained on all of them). Summing
these vectors instead gives a sentence vector whose cosine with another is their overlap of
stems, each stem counted by its rarity in the language at large: the tf-idf cosine of
information retrieval, in the dense form that the rest of the scoring already reads (pooling,
windows, centring, blocks). Nothing is learned from the project's texts, so the first
document aligns as well as the hundredth.

Two stems' random unit vectors in `DIMENSIONS` dimensions have a cosine of about
1/sqrt(DIMENSIONS) (0.06): the noise this adds to a sentence's similarities is small beside
the overlap of one content word. Rarity comes from `wordfreq`'s frequency lists (about 40
languages, installed with the package); stems from Snowball (about 30 languages). A language
that one of them lacks gets equal weights or unstemmed words, and still aligns.
"""

from __future__ import annotations

import math
import zlib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import snowballstemmer
import wordfreq
from gensim.models import KeyedVectors

from workers.align.scoring.tokens import lexical_tokens
from workers.align.tokenizers import primary_language

DIMENSIONS = 300
"""Size of a stem's random direction; fixed, so a project's vectors never depend on a setting
that tuning could change (300 and 500 dimensions gave the same alignments to within 0.3 %)."""

SENTENCE_WORDS = 20
"""A word's weight is -log(SENTENCE_WORDS x its frequency), floored at 0: the information of
seeing it in a sentence of about this many words, so that words found in most sentences
('de', 'the') weigh next to nothing and a word seen once in a million words weighs about 10."""

RAREST_FREQUENCY = 1e-7
"""The frequency given to words the language's list does not know (names, typos, numbers
spelled oddly): as rare as the rarest words the lists hold."""

SNOWBALL_ALGORITHMS = {
    "ar": "arabic",
    "ca": "catalan",
    "cs": "czech",
    "da": "danish",
    "de": "german",
    "el": "greek",
    "en": "english",
    "es": "spanish",
    "eu": "basque",
    "fi": "finnish",
    "fr": "french",
    "ga": "irish",
    "hi": "hindi",
    "hu": "hungarian",
    "hy": "armenian",
    "id": "indonesian",
    "it": "italian",
    "lt": "lithuanian",
    "nb": "norwegian",
    "ne": "nepali",
    "nl": "dutch",
    "no": "norwegian",
    "pl": "polish",
    "pt": "portuguese",
    "ro": "romanian",
    "ru": "russian",
    "sr": "serbian",
    "sv": "swedish",
    "ta": "tamil",
    "tr": "turkish",
}
"""Language codes (the project's, primary subtag) and their Snowball stemmer."""


@dataclass(frozen=True)
class LexicalSupport:
    """What the lexical vectors know of a language: `frequencies` (wordfreq has a list) and
    `stems` (Snowball has a stemmer)."""

    language: str
    frequencies: bool
    stems: bool


def support(language: str | None) -> LexicalSupport:
    primary = primary_language(language)
    return LexicalSupport(
        language=primary,
        frequencies=primary in _wordfreq_languages(),
        stems=primary in SNOWBALL_ALGORITHMS,
    )


def lexical_vectors(words: Iterable[str], language: str | None) -> KeyedVectors:
    """(len(words), DIMENSIONS) vectors: each word's stem direction times its rarity weight."""
    known = support(language)
    ordered = sorted(set(words))
    stem = _stemmer(known.language) if known.stems else None
    stems = stem.stemWords(ordered) if stem is not None else ordered
    table = np.empty((len(ordered), DIMENSIONS), dtype=np.float32)
    for row, (word, word_stem) in enumerate(zip(ordered, stems, strict=True)):
        weight = rarity_weight(word, known.language) if known.frequencies else 1.0
        table[row] = weight * _direction(word_stem)
    vectors = KeyedVectors(vector_size=DIMENSIONS)
    if ordered:
        vectors.add_vectors(ordered, table)
    return vectors


def sentence_words(sentences: Iterable[str]) -> set[str]:
    return {token for sentence in sentences for token in lexical_tokens(sentence)}


def rarity_weight(word: str, language: str) -> float:
    frequency = max(wordfreq.word_frequency(word, language), RAREST_FREQUENCY)
    return max(0.0, -math.log(SENTENCE_WORDS * frequency))


EXPLAINED_LOG_FREQUENCY = -8.0
"""Mean natural log frequency per running word (of the texts' most common forms) above which
a language's list explains a text: text in its own language scored -6.1 to -6.8 (two French
meetings, the English and Spanish test pairs), in any other of the 24 languages -9.3 or
less."""

UNKNOWN_WORD_FREQUENCY = 1e-6
"""The frequency a short list gives a word it lacks when scoring which language a text is in."""


def language_mismatch(sentences: Sequence[str], declared: str | None) -> str | None:
    """The language the texts are likely in when it is not `declared` (None when the declared
    language explains them, or no other explains them better). The declared language's list
    is read first; the others' only when it does not explain the texts."""
    primary = primary_language(declared)
    common = _common_words(sentences)
    if not common or primary not in _short_list_languages():
        return None
    if _mean_log_frequency(common, primary) >= EXPLAINED_LOG_FREQUENCY:
        return None
    best = max(
        (language for language in _short_list_languages() if language in SNOWBALL_ALGORITHMS),
        key=lambda language: _mean_log_frequency(common, language),
    )
    explains = _mean_log_frequency(common, best) >= EXPLAINED_LOG_FREQUENCY
    return best if explains and best != primary else None


def _common_words(sentences: Sequence[str], sample: int = 400) -> list[tuple[str, int]]:
    counts = Counter(token for sentence in sentences for token in lexical_tokens(sentence.lower()))
    return [(word, count) for word, count in counts.most_common(sample) if word.isalpha()]


def _mean_log_frequency(common: list[tuple[str, int]], language: str) -> float:
    frequencies = wordfreq.get_frequency_dict(language, wordlist="small")
    total = sum(count for _, count in common)
    return (
        sum(
            count * math.log(max(frequencies.get(word, 0.0), UNKNOWN_WORD_FREQUENCY))
            for word, count in common
        )
        / total
    )


@cache
def _short_list_languages() -> frozenset[str]:
    return frozenset(wordfreq.available_languages(wordlist="small"))


@cache
def _wordfreq_languages() -> frozenset[str]:
    return frozenset(wordfreq.available_languages(wordlist="best"))


@cache
def _stemmer(language: str) -> snowballstemmer.stemmer:
    return snowballstemmer.stemmer(SNOWBALL_ALGORITHMS[language])


def _direction(stem: str) -> np.ndarray:
    """A unit vector fixed by the stem's text alone (CRC32, not hash(): the same in every
    process, so a project's vectors never change between workers)."""
    direction = np.random.default_rng(zlib.crc32(stem.encode("utf-8"))).standard_normal(DIMENSIONS)
    return direction / np.linalg.norm(direction)
