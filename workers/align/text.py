"""The corpus form every input format is put into, and how it splits into sentences.

Text is lower-cased tokens separated by spaces (see `tokenizers` for each language's
tokenizer), reports keep `<h>`/`<nom>`/`<p>`/`<table>` tags. One form for every format lets
scoring treat a .docx, a Markdown file and a Whisper JSON the same way.
"""

from __future__ import annotations

import re

SENTENCE_END_TOKENS = frozenset({".", "?", "!", "</h>", "</p>", "</nom>"})
"""Tokens after which a new sentence starts (the corpus's own rule, closing tags included)."""

REPORT_TAGS = frozenset({"h", "nom", "p", "table"})
UNKNOWN_WORD = "<unk>"

_TAG_TOKEN = re.compile(r"^</?[a-z]+>$")


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


def first_tagged(text: str, tag: str) -> str | None:
    """Content of the first `<tag> ... </tag>` span of corpus-form text, e.g. a speaker name."""
    tokens = text.split()
    opening, closing = f"<{tag}>", f"</{tag}>"
    if opening not in tokens:
        return None
    start = tokens.index(opening) + 1
    end = tokens.index(closing, start) if closing in tokens[start:] else len(tokens)
    return " ".join(tokens[start:end]) or None
