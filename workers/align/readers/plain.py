"""Reader for reports typed as plain text or Markdown, with speakers on "Name :" lines."""

from __future__ import annotations

import re
from collections.abc import Iterator

from workers.align.model import Report
from workers.align.readers._input import InputFile, decode_text
from workers.align.readers._segments import Block, build_report
from workers.align.readers._speakers import split_speaker
from workers.align.text import tokenize

_MARKDOWN_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_MARKDOWN_EMPHASIS = re.compile(r"\*\*|__|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)")


def read_plain_report(file: InputFile, markdown: bool) -> Report:
    return build_report(_blocks(decode_text(file), markdown), file.name)


def _blocks(text: str, markdown: bool) -> Iterator[Block]:
    for line in text.splitlines():
        heading = _MARKDOWN_HEADING.match(line) if markdown else None
        if heading:
            yield Block("h", tokenize(_plain(heading.group(1))))
            continue
        speaker, rest = split_speaker(line)
        if speaker:
            yield Block("nom", tokenize(_plain(speaker)))
        yield Block("p", tokenize(_plain(rest)))


def _plain(text: str) -> str:
    return _MARKDOWN_EMPHASIS.sub("", text)
