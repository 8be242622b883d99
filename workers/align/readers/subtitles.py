"""Readers for SubRip (.srt) and WebVTT (.vtt) subtitles, as exported by ASR services."""

from __future__ import annotations

import re
from collections.abc import Iterator

from workers.align.document_model import ReaderError, Transcript
from workers.align.readers._input import (
    InputFile,
    checked_interval,
    checked_seconds,
    decode_text,
)
from workers.align.readers._speakers import split_speaker
from workers.align.readers._turns import TimedText, build_transcript
from workers.align.tokenizers import Tokenizer

_SRT_TIMING = re.compile(
    r"^\s*(\d+:\d{2}:\d{2}[,.]\d{1,3})\s*-->\s*(\d+:\d{2}:\d{2}[,.]\d{1,3})\s*$"
)
_VTT_TIME = r"(?:\d+:)?\d{2}:\d{2}\.\d{3}"
_VTT_TIMING = re.compile(rf"^\s*({_VTT_TIME})\s+-->\s+({_VTT_TIME})(?:\s+.*)?$")
_VTT_VOICE = re.compile(r"<v(?:\.[^\s>]*)?\s+([^>]+)>")
_MARKUP = re.compile(r"<[^>]*>")


def read_srt(file: InputFile, tokenizer: Tokenizer) -> Transcript:
    return build_transcript(list(_srt_cues(file)), file.name, tokenizer)


def read_vtt(file: InputFile, tokenizer: Tokenizer) -> Transcript:
    return build_transcript(list(_vtt_cues(file)), file.name, tokenizer)


def _blocks(text: str) -> Iterator[tuple[int, list[str]]]:
    """Blank-line separated blocks with the line number of their first line."""
    block: list[str] = []
    first_line = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            if not block:
                first_line = number
            block.append(line)
        elif block:
            yield first_line, block
            block = []
    if block:
        yield first_line, block


def _srt_cues(file: InputFile) -> Iterator[TimedText]:
    for first_line, lines in _blocks(decode_text(file)):
        timing_offset = 1 if lines[0].strip().isdigit() else 0
        if len(lines) <= timing_offset:
            raise ReaderError(file.name, f"line {first_line}", "subtitle number without timing")
        timing = _SRT_TIMING.match(lines[timing_offset])
        if not timing:
            raise ReaderError(
                file.name,
                f"line {first_line + timing_offset}",
                f"expected a timing like '00:00:01,000 --> 00:00:04,000', "
                f"found {lines[timing_offset].strip()!r}",
            )
        speaker, text = split_speaker(_MARKUP.sub("", " ".join(lines[timing_offset + 1 :])))
        start, end = _cue_times(file, f"line {first_line + timing_offset}", timing)
        yield TimedText(text, speaker, start, end)


def _vtt_cues(file: InputFile) -> Iterator[TimedText]:
    blocks = _blocks(decode_text(file))
    header = next(blocks, None)
    if header is None or not header[1][0].startswith("WEBVTT"):
        raise ReaderError(file.name, "line 1", "a WebVTT file must start with 'WEBVTT'")
    for first_line, lines in blocks:
        if lines[0].startswith(("NOTE", "STYLE", "REGION")):
            continue
        timing_index = next((i for i, line in enumerate(lines) if "-->" in line), None)
        timing = _VTT_TIMING.match(lines[timing_index]) if timing_index is not None else None
        if timing_index is None or timing is None:
            line_number = first_line + (timing_index or 0)
            raise ReaderError(
                file.name,
                f"line {line_number}",
                "expected a cue timing like '00:00:01.000 --> 00:00:04.000'",
            )
        raw = " ".join(lines[timing_index + 1 :])
        voice = _VTT_VOICE.search(raw)
        speaker, text = split_speaker(_MARKUP.sub("", raw))
        start, end = _cue_times(file, f"line {first_line + timing_index}", timing)
        yield TimedText(text, voice.group(1).strip() if voice else speaker, start, end)


def _cue_times(file: InputFile, location: str, timing: re.Match[str]) -> tuple[float, float]:
    """A cue's start and end, each a time a recording can have, the end not before the start:
    the regexes admit any number of hour digits, which `float` turns into infinity."""
    start = checked_seconds(file.name, location, "start time", _seconds(timing.group(1)))
    end = checked_seconds(file.name, location, "end time", _seconds(timing.group(2)))
    checked_interval(file.name, location, start, end)
    return start, end


def _seconds(timestamp: str) -> float:
    """Seconds of `[hh:]mm:ss.mmm`; the regexes above guarantee every field is numeric."""
    total = 0.0
    for field in timestamp.replace(",", ".").split(":"):
        total = total * 60 + float(field)
    return total
