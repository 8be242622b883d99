"""Reader for short free-text reports: a podcast's description, a talk's abstract.

Such a text has no speakers or sections to cut at, and the podcast paper scores a unit
against each of its sentences, so each sentence is a segment. Paragraphs, Markdown headings
and list items end a sentence even without a full stop ("Support this podcast" lines rarely
have one); lines wrapped inside a paragraph do not. A "sentence" without a letter or digit (a
lone "#", a row of dashes) is no sentence.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workers.align.corpus import item_id
from workers.align.document_model import ReaderError, Report, Segment
from workers.align.readers._input import InputFile, decode_text
from workers.align.text import scoring_sentences
from workers.align.tokenizers import Tokenizer

_BLANK_LINES = re.compile(r"\n\s*\n")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+\u2022\u2013\u2014]|\d+[.)])\s+(.*)$")
_LINK = re.compile(r"\[([^\]]*)\]\(([^)\s]*)\)")
_EMPHASIS = re.compile(r"\*\*|__|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)")


def read_description(file: InputFile, tokenizer: Tokenizer, text: str | None = None) -> Report:
    """`text`: the file's text when it was not typed (a .docx's paragraphs, blank-line
    separated); by default the file is decoded as UTF-8 text."""
    sentences = [
        sentence
        for block in _blocks(decode_text(file) if text is None else text)
        for sentence in scoring_sentences(tokenizer.tokenize(block))
        if any(char.isalnum() for char in sentence)
    ]
    if not sentences:
        raise ReaderError(file.name, "whole file", "the description has no sentence")
    return Report(
        segments=tuple(
            Segment(
                id=item_id(index), text=sentence, sentences=(sentence,), speaker=None, index=index
            )
            for index, sentence in enumerate(sentences)
        ),
        source=file.name,
        segmented_by="sentences",
    )


def _blocks(text: str) -> Iterator[str]:
    """Paragraphs, with headings and list items as blocks of their own; Markdown links keep
    their text and address, emphasis marks go."""
    for paragraph in _BLANK_LINES.split(text):
        running: list[str] = []
        for line in paragraph.splitlines():
            own = _HEADING.match(line) or _LIST_ITEM.match(line)
            if own:
                if running:
                    yield _plain(" ".join(running))
                    running = []
                yield _plain(own.group(1))
            elif line.strip():
                running.append(line.strip())
        if running:
            yield _plain(" ".join(running))


def _plain(text: str) -> str:
    return _EMPHASIS.sub("", _LINK.sub(r"\1 \2", text))
