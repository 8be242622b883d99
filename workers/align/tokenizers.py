"""Lower-casing and tokenising free text to the corpus form, one tokenizer per language.

The public_meetings corpus is lower-cased and tokenised with spaces by a French tokenizer
(elided articles split off, inverted pronouns such as "est -ce" detached, punctuation
isolated). French input reproduces that form exactly, so our readers can be checked against
the corpus. Other languages get the same punctuation handling without the French rules: an
English "don't" or "o'clock" is one word, "well-known" stays whole, "4th" is not cut in two.
The tokenizer is chosen by the project's language code (`fr`, `fr-CA`, `en`, `en_GB`, ...).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from workers.align.text import is_tag

DEFAULT_LANGUAGE = "fr"
"""The corpus's language, and the language of a project that names none."""

_CHARACTER_REPLACEMENTS = str.maketrans(
    {
        "\u2019": "'",
        "\u2018": "'",
        "\u00ab": '"',
        "\u00bb": '"',
        "\u201c": '"',
        "\u201d": '"',
        "\u00a0": " ",
        "\u202f": " ",
        "\u2009": " ",
        "\u2026": "...",
        "\u2013": "--",
        "\u2014": "--",
    }
)
_LEADING_PUNCTUATION = "([{\"'¿¡"
_TRAILING_PUNCTUATION = ',;:?!.)]}"%…'
_LETTER_DIGIT_BOUNDARY = re.compile(r"(?<=[^\W\d_])(?=\d)|(?<=\d)(?=[^\W\d_])")
_DOTTED_ACRONYM = re.compile(r"^(?:[^\W\d_]\.){2,}$")


@dataclass(frozen=True)
class Tokenizer:
    """`elision` and `inverted_pronoun` are the French rules (None elsewhere);
    `abbreviations` end with a dot that does not end a sentence; `ordinal` words ("1er") are
    kept whole where letters are otherwise split from digits."""

    language: str
    abbreviations: frozenset[str]
    ordinal: re.Pattern[str] | None = None
    elision: re.Pattern[str] | None = None
    elidable_stems: frozenset[str] = frozenset()
    inverted_pronoun: re.Pattern[str] | None = None
    dotted_acronyms: bool = True
    split_letters_from_digits: bool = False

    def tokenize(self, raw: str) -> str:
        """Lower-case and tokenise free text (a document paragraph, a subtitle)."""
        normalised = raw.translate(_CHARACTER_REPLACEMENTS).lower()
        tokens: list[str] = []
        for chunk in normalised.split():
            tokens.extend(self._peel_punctuation(chunk))
        return " ".join(tokens)

    def normalise_asr_word(self, word: str) -> list[str]:
        """Corpus form of one ASR word, which can become several tokens.

        The French recogniser emits words already split at elisions ("l'", "aujourd'"); the
        corpus keeps the usual elisions whole but detaches the apostrophe from other stems
        ("aujourd '"), detaches inverted pronouns and splits letters from digits ("t2" ->
        "t 2", but "1er").
        """
        word = word.translate(_CHARACTER_REPLACEMENTS).lower()
        if is_tag(word):
            return [word]
        if (
            self.elision is not None
            and word.endswith("'")
            and len(word) > 1
            and word[:-1] not in self.elidable_stems
        ):
            return [*self.normalise_asr_word(word[:-1]), "'"]
        inverted = self.inverted_pronoun.match(word) if self.inverted_pronoun else None
        if inverted:
            return list(inverted.groups())
        if not self.split_letters_from_digits or (self.ordinal and self.ordinal.match(word)):
            return word.split()
        return _LETTER_DIGIT_BOUNDARY.sub(" ", word).split()

    def _split_word(self, word: str) -> list[str]:
        """Detach elisions and inverted pronouns of one punctuation-free word."""
        pieces: list[str] = []
        while self.elision is not None and (match := self.elision.match(word)):
            pieces.append(match.group(0))
            word = word[match.end() :]
        inverted = self.inverted_pronoun.match(word) if self.inverted_pronoun else None
        if inverted:
            pieces.extend(inverted.groups())
        elif word:
            pieces.append(word)
        return pieces

    def _peel_punctuation(self, chunk: str) -> list[str]:
        leading: list[str] = []
        trailing: list[str] = []
        while chunk and chunk[0] in _LEADING_PUNCTUATION and len(chunk) > 1:
            leading.append(chunk[0])
            chunk = chunk[1:]
        while chunk and not self._keeps_its_dot(chunk):
            if chunk.endswith("...") and len(chunk) > 3:
                trailing.insert(0, "...")
                chunk = chunk[:-3]
            elif chunk[-1] in _TRAILING_PUNCTUATION and len(chunk) > 1:
                trailing.insert(0, chunk[-1])
                chunk = chunk[:-1]
            else:
                break
        return leading + self._split_word(chunk) + trailing

    def _keeps_its_dot(self, chunk: str) -> bool:
        """An abbreviation or an initial ("j. dupont") does not end a sentence."""
        if chunk in self.abbreviations:
            return True
        if len(chunk) == 2 and chunk[1] == "." and chunk[0].isalpha():
            return True
        return self.dotted_acronyms and bool(_DOTTED_ACRONYM.match(chunk))


FRENCH = Tokenizer(
    language="fr",
    abbreviations=frozenset({"m.", "mm.", "mme.", "mlle.", "etc.", "cf.", "dr.", "st.", "mr."}),
    ordinal=re.compile(r"^\d+(er|re)$"),
    elision=re.compile(r"^(l|d|n|s|c|j|m|t|qu)'(?=\w)"),
    elidable_stems=frozenset({"l", "d", "n", "s", "c", "j", "m", "t", "qu"}),
    inverted_pronoun=re.compile(
        r"^(\w[\w'-]*?)(-(?:t-)?(?:ce|vous|moi|toi|il|ils|elle|elles|nous|on|je|tu|le))$"
    ),
    dotted_acronyms=False,
    split_letters_from_digits=True,
)
ENGLISH = Tokenizer(
    language="en",
    abbreviations=frozenset(
        {"mr.", "mrs.", "ms.", "dr.", "prof.", "st.", "jr.", "sr.", "etc.", "cf.", "vs."}
    ),
)
SPANISH = Tokenizer(
    language="es",
    abbreviations=frozenset(
        {"sr.", "sra.", "srta.", "sres.", "dr.", "dra.", "dña.", "ud.", "uds.", "etc.", "pág."}
    ),
)
GENERIC = Tokenizer(language="", abbreviations=frozenset())
"""Any other language: punctuation isolated, words kept whole, no abbreviation list."""

_BY_LANGUAGE = {"fr": FRENCH, "en": ENGLISH, "es": SPANISH}


def primary_language(language: str | None) -> str:
    """`fr` of `fr-CA` or `FR_be`; the default language when none is given."""
    primary = re.split(r"[-_]", (language or "").strip().lower(), maxsplit=1)[0]
    return primary or DEFAULT_LANGUAGE


def tokenizer_for(language: str | None) -> Tokenizer:
    """The tokenizer of a language code's primary subtag; French when none is given."""
    return _BY_LANGUAGE.get(primary_language(language), GENERIC)
