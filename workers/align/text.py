"""Text normalisation that puts every input format into the public_meetings corpus form.

The corpus is lower-cased and tokenised with spaces by a French tokenizer (elided articles
split off, inverted pronouns such as "est -ce" detached, punctuation isolated). Reproducing
that form lets our readers be checked against the corpus, and lets scoring treat a .docx,
a Markdown file and a Whisper JSON the same way.
"""

from __future__ import annotations

import re

SENTENCE_END_TOKENS = frozenset({".", "?", "!", "</h>", "</p>", "</nom>"})
"""Tokens after which a new sentence starts (the corpus's own rule, closing tags included)."""

REPORT_TAGS = frozenset({"h", "nom", "p", "table"})
UNKNOWN_WORD = "<unk>"

_TAG_TOKEN = re.compile(r"^</?[a-z]+>$")
_ELISION = re.compile(r"^(l|d|n|s|c|j|m|t|qu)'(?=\w)")
_ELIDABLE_STEMS = frozenset({"l", "d", "n", "s", "c", "j", "m", "t", "qu"})
_INVERTED_PRONOUN = re.compile(
    r"^(\w[\w'-]*?)(-(?:t-)?(?:ce|vous|moi|toi|il|ils|elle|elles|nous|on|je|tu|le))$"
)
_LETTER_DIGIT_BOUNDARY = re.compile(r"(?<=[^\W\d_])(?=\d)|(?<=\d)(?=[^\W\d_])")
_ORDINAL = re.compile(r"^\d+(er|re)$")
_LEADING_PUNCTUATION = "([{\"'"
_TRAILING_PUNCTUATION = ',;:?!.)]}"%…'
_ABBREVIATIONS = frozenset({"m.", "mm.", "mme.", "mlle.", "etc.", "cf.", "dr.", "st.", "mr."})
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


def split_sentences(text: str) -> list[str]:
    """Split corpus-form text into sentences exactly as the public_meetings tooling does.

    Runs of end tokens (". </p>") stay with the sentence they close, so tags never start a
    sentence of their own.
    """
    sentences: list[list[str]] = [[]]
    previous_was_end = False
    for token in text.split():
        if token in SENTENCE_END_TOKENS:
            previous_was_end = True
        else:
            if previous_was_end:
                sentences.append([])
            previous_was_end = False
        sentences[-1].append(token)
    return [" ".join(sentence) for sentence in sentences if sentence]


def is_tag(token: str) -> bool:
    return bool(_TAG_TOKEN.match(token))


def strip_tags(text: str) -> str:
    """Drop markup and <unk> tokens, which carry no lexical content to score on."""
    return " ".join(token for token in text.split() if not is_tag(token))


def scoring_sentences(text: str) -> tuple[str, ...]:
    """Tag-free sentences of corpus-form text; sentences left empty by tag removal are dropped."""
    stripped = (strip_tags(sentence) for sentence in split_sentences(text))
    return tuple(sentence for sentence in stripped if sentence)


def _split_word(word: str) -> list[str]:
    """Detach elisions and inverted pronouns of one punctuation-free word."""
    pieces: list[str] = []
    while match := _ELISION.match(word):
        pieces.append(match.group(0))
        word = word[match.end() :]
    inverted = _INVERTED_PRONOUN.match(word)
    if inverted:
        pieces.extend(inverted.groups())
    elif word:
        pieces.append(word)
    return pieces


def _peel_punctuation(chunk: str) -> list[str]:
    leading: list[str] = []
    trailing: list[str] = []
    while chunk and chunk[0] in _LEADING_PUNCTUATION and len(chunk) > 1:
        leading.append(chunk[0])
        chunk = chunk[1:]
    while chunk and chunk not in _ABBREVIATIONS and not _is_initial(chunk):
        if chunk.endswith("...") and len(chunk) > 3:
            trailing.insert(0, "...")
            chunk = chunk[:-3]
        elif chunk[-1] in _TRAILING_PUNCTUATION and len(chunk) > 1:
            trailing.insert(0, chunk[-1])
            chunk = chunk[:-1]
        else:
            break
    return leading + _split_word(chunk) + trailing


def _is_initial(chunk: str) -> bool:
    """A single letter followed by a dot ("j. dupont") is an initial, not a sentence end."""
    return len(chunk) == 2 and chunk[1] == "." and chunk[0].isalpha()


def tokenize(raw: str) -> str:
    """Lower-case and tokenise free text (a document paragraph, a subtitle) to corpus form."""
    normalised = raw.translate(_CHARACTER_REPLACEMENTS).lower()
    tokens: list[str] = []
    for chunk in normalised.split():
        tokens.extend(_peel_punctuation(chunk))
    return " ".join(tokens)


def normalise_asr_word(word: str) -> list[str]:
    """Corpus form of one ASR word, which can become several tokens.

    The recogniser emits words already split at elisions ("l'", "aujourd'"); the corpus keeps
    the usual elisions whole but detaches the apostrophe from other stems ("aujourd '"),
    detaches inverted pronouns and splits letters from digits ("t2" -> "t 2", but "1er").
    """
    word = word.translate(_CHARACTER_REPLACEMENTS).lower()
    if is_tag(word):
        return [word]
    if word.endswith("'") and len(word) > 1 and word[:-1] not in _ELIDABLE_STEMS:
        return [*normalise_asr_word(word[:-1]), "'"]
    inverted = _INVERTED_PRONOUN.match(word)
    if inverted:
        return list(inverted.groups())
    if _ORDINAL.match(word):
        return [word]
    return _LETTER_DIGIT_BOUNDARY.sub(" ", word).split()


def first_tagged(text: str, tag: str) -> str | None:
    """Content of the first `<tag> ... </tag>` span of corpus-form text, e.g. a speaker name."""
    tokens = text.split()
    opening, closing = f"<{tag}>", f"</{tag}>"
    if opening not in tokens:
        return None
    start = tokens.index(opening) + 1
    end = tokens.index(closing, start) if closing in tokens[start:] else len(tokens)
    return " ".join(tokens[start:end]) or None
