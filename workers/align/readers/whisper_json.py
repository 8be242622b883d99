"""Reader for the JSON that Whisper and WhisperX write: segments with optional word timings."""

from __future__ import annotations

from typing import Any

from workers.align.document_model import ReaderError, Transcript, Word
from workers.align.readers._input import (
    InputFile,
    checked_interval,
    checked_seconds,
    decode_text,
    finite_number,
    parse_json,
)
from workers.align.readers._turns import TimedText, build_transcript
from workers.align.tokenizers import Tokenizer


def read_whisper_json(file: InputFile, tokenizer: Tokenizer) -> Transcript:
    document = parse_json(file.name, decode_text(file))
    segments = document.get("segments") if isinstance(document, dict) else None
    if not isinstance(segments, list) or not segments:
        raise ReaderError(file.name, "top level", 'expected a non-empty "segments" list')
    pieces = [_piece(file, index, segment) for index, segment in enumerate(segments)]
    return build_transcript(pieces, file.name, tokenizer)


def _piece(file: InputFile, index: int, segment: Any) -> TimedText:
    location = f"segments[{index}]"
    if not isinstance(segment, dict) or not isinstance(segment.get("text"), str):
        raise ReaderError(file.name, location, 'a segment must be an object with a "text" string')
    start = _optional_time(file, location, "start", segment)
    end = _optional_time(file, location, "end", segment)
    checked_interval(file.name, location, start, end)
    words = tuple(
        _word(file, f"{location}.words[{position}]", word, start, end)
        for position, word in enumerate(segment.get("words") or [])
    )
    speaker = segment.get("speaker")
    return TimedText(segment["text"], str(speaker) if speaker else None, start, end, words)


def _word(
    file: InputFile,
    location: str,
    word: Any,
    segment_start: float | None,
    segment_end: float | None,
) -> Word:
    """WhisperX leaves timings out for words it could not align (often numbers); those take
    the segment's bounds rather than inventing a position."""
    if not isinstance(word, dict) or not isinstance(word.get("word"), str):
        raise ReaderError(file.name, location, 'a word must be an object with a "word" string')
    start = _optional_time(file, location, "start", word)
    end = _optional_time(file, location, "end", word)
    checked_interval(file.name, location, start, end)
    raw_confidence = word.get("probability", word.get("score", 1.0))
    confidence = finite_number(raw_confidence)
    if confidence is None:
        raise ReaderError(file.name, location, f"confidence {raw_confidence!r} is not a number")
    return Word(
        text=word["word"].strip(),
        start=start if start is not None else segment_start or 0.0,
        end=end if end is not None else segment_end or 0.0,
        confidence=confidence,
    )


def _optional_time(file: InputFile, location: str, key: str, item: dict) -> float | None:
    value = item.get(key)
    if value is None:
        return None
    seconds = finite_number(value)
    if seconds is None:
        raise ReaderError(file.name, f"{location}.{key}", f"{value!r} is not a number of seconds")
    return checked_seconds(file.name, f"{location}.{key}", key, seconds)
