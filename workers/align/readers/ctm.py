"""Reader for the ASR output the corpus was built from: one or more CTM files per meeting.

Each line is `recording channel start duration word confidence`; a pseudo-word
`<start=S,end=E,speaker=SPK>` opens every turn. A long recording is cut into
`<hash>.0.ctm`, `<hash>.1.ctm`, ... which are concatenated in numeric order.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from workers.align.corpus import item_id
from workers.align.document_model import ReaderError, Transcript, Turn, Word
from workers.align.readers._input import (
    InputFile,
    checked_interval,
    checked_seconds,
    decode_text,
)
from workers.align.text import scoring_sentences
from workers.align.tokenizers import Tokenizer

_TURN_HEADER = re.compile(r"^<start=([^,>]+),end=([^,>]+),speaker=([^,>]*)>$")
_PART_NUMBER = re.compile(r"\.(\d+)\.ctm$", re.IGNORECASE)
_FIELD_COUNT = 6
_LEADING_STOPS = frozenset({".", "?", "!"})

MIN_TURN_WORDS = 2
"""Turns shorter than this are recogniser debris (a lone "." or name) that the corpus drops."""


def ctm_part_order(name: str) -> tuple[int, str]:
    """Sort key putting `x.2.ctm` before `x.10.ctm`; names without a part number go first."""
    match = _PART_NUMBER.search(name)
    return (int(match.group(1)) if match else -1, name)


def read_ctm(files: Sequence[InputFile], tokenizer: Tokenizer) -> Transcript:
    if not files:
        raise ValueError("at least one .ctm file is needed")
    ordered = sorted(files, key=lambda file: ctm_part_order(file.name))
    drafts: list[_TurnDraft] = []
    for file in ordered:
        drafts.extend(_parse_file(file, tokenizer))
    turns = tuple(
        draft.build(index) for index, draft in enumerate(d for d in drafts if d.is_kept())
    )
    if not turns:
        raise ReaderError(ordered[0].name, "whole file", "no transcript turn with words found")
    return Transcript(turns=turns, source=", ".join(file.name for file in ordered))


class _TurnDraft:
    """Words of one turn gathered while parsing, before the turn becomes immutable."""

    def __init__(self, speaker: str | None, start: float, end: float, tokenizer: Tokenizer) -> None:
        self.tokenizer = tokenizer
        self.speaker = speaker
        self.start = start
        self.end = end
        self.tokens: list[str] = []
        self.words: list[Word] = []

    def add(self, word: Word) -> None:
        self.words.append(word)
        self.tokens.extend(self.tokenizer.normalise_asr_word(word.text))

    def _kept_tokens(self) -> list[str]:
        tokens = self.tokens
        while tokens and tokens[0] in _LEADING_STOPS:
            tokens = tokens[1:]
        return tokens

    def is_kept(self) -> bool:
        return len(self._kept_tokens()) >= MIN_TURN_WORDS

    def build(self, index: int) -> Turn:
        text = " ".join(self._kept_tokens())
        return Turn(
            id=item_id(index),
            text=text,
            sentences=scoring_sentences(text),
            speaker=self.speaker,
            start=self.start,
            end=self.end,
            index=index,
            words=tuple(self.words),
        )


def _parse_file(file: InputFile, tokenizer: Tokenizer) -> list[_TurnDraft]:
    drafts: list[_TurnDraft] = []
    for line_number, line in enumerate(decode_text(file).splitlines(), start=1):
        if not line.strip():
            continue
        location = f"line {line_number}"
        fields = line.split()
        if len(fields) != _FIELD_COUNT:
            raise ReaderError(
                file.name,
                location,
                f"expected {_FIELD_COUNT} fields (recording channel start duration word "
                f"confidence), found {len(fields)}",
            )
        start, duration, confidence = (
            _number(file, location, name, value)
            for name, value in (
                ("start", fields[2]),
                ("duration", fields[3]),
                ("confidence", fields[5]),
            )
        )
        checked_seconds(file.name, location, "start", start)
        checked_seconds(file.name, location, "duration", duration)
        checked_seconds(file.name, location, "end (start + duration)", start + duration)
        token = fields[4]
        header = _TURN_HEADER.match(token)
        if header:
            turn_start, turn_end = (
                checked_seconds(file.name, location, name, _number(file, location, name, value))
                for name, value in (("turn start", header.group(1)), ("turn end", header.group(2)))
            )
            checked_interval(file.name, location, turn_start, turn_end)
            drafts.append(
                _TurnDraft(
                    speaker=header.group(3) or None,
                    start=turn_start,
                    end=turn_end,
                    tokenizer=tokenizer,
                )
            )
        elif not drafts:
            raise ReaderError(
                file.name, location, "word before the first <start=...,end=...,speaker=...> turn"
            )
        else:
            drafts[-1].add(Word(token, start, start + duration, confidence))
    return drafts


def _number(file: InputFile, location: str, name: str, value: str) -> float:
    """`value` as a finite float: `float` also reads "nan", "inf" and 1e999 (as infinity)."""
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if not math.isfinite(number):
        raise ReaderError(file.name, location, f"{name} {value[:20]!r} is not a number")
    return number
