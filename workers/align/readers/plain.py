"""Reader for reports typed as plain text or Markdown, with speakers on "Name :" lines."""

from __future__ import annotations

import re
from collections.abc import Iterator

from workers.align.document_model import Report
from workers.align.readers._input import InputFile, decode_text
from workers.align.readers._segments import Block, build_paragraph_report, build_report
from workers.align.readers._speakers import split_speaker
from workers.align.tokenizers import Tokenizer

_MARKDOWN_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_BLANK_LINES = re.compile(r"\n\s*\n")
_MARKDOWN_EMPHASIS = re.compile(r"\*\*|__|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)")


def read_plain_report(file: InputFile, markdown: bool, tokenizer: Tokenizer) -> Report:
    """Segments at speaker lines and headings; a report with neither (typed notes, a
    description) is cut into its paragraphs instead of becoming one segment."""
    text = decode_text(file)
    blocks = list(_blocks(text, markdown, tokenizer))
    if any(block.kind in ("nom", "h") for block in blocks):
        return build_report(blocks, file.name)
    return build_paragraph_report(_paragraphs(text, tokenizer), file.name)


def _paragraphs(text: str, tokenizer: Tokenizer) -> Iterator[Block]:
    for paragraph in _BLANK_LINES.split(text):
        lines = " ".join(line.strip() for line in paragraph.splitlines() if line.strip())
        yield Block("p", tokenizer.tokenize(_plain(lines)))


def _blocks(text: str, markdown: bool, tokenizer: Tokenizer) -> Iterator[Block]:
    for line in text.splitlines():
        heading = _MARKDOWN_HEADING.match(line) if markdown else None
        if heading:
            yield Block("h", tokenizer.tokenize(_plain(heading.group(1))))
            continue
        speaker, rest = split_speaker(line, bare_names=True)
        if speaker:
            yield Block("nom", tokenizer.tokenize(_plain(speaker)))
        yield Block("p", tokenizer.tokenize(_plain(rest)))


def _plain(text: str) -> str:
    return _MARKDOWN_EMPHASIS.sub("", text)
