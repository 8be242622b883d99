"""Turning what callers hand us (paths or uploaded bytes) into decoded text, or a ReaderError."""

from __future__ import annotations

import codecs
import json
import math
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any

from workers.align.document_model import ReaderError

Source = str | PathLike[str] | bytes
"""A path on disk, or the raw bytes of an uploaded file (then a filename must be given)."""


@dataclass(frozen=True)
class InputFile:
    name: str
    data: bytes


def load_input(source: Source, filename: str | None = None) -> InputFile:
    if isinstance(source, bytes):
        if not filename:
            raise ValueError("a filename is needed to read raw bytes")
        return InputFile(filename, source)
    path = Path(source)
    try:
        return InputFile(filename or str(path), path.read_bytes())
    except OSError as error:
        raise ReaderError(path, "file", f"cannot be read ({error.strerror})") from error


def decode_text(file: InputFile) -> str:
    """Decode UTF-8 (with or without BOM), falling back to Windows-1252 only when it is certain.

    Bytes that are not UTF-8 are taken as cp1252 only if they contain no C1 control range
    bytes undefined in cp1252 and no NUL; anything else is refused with the offending offset
    rather than guessed, because a wrong guess silently corrupts every accented word.
    """
    if not file.data.strip():
        raise ReaderError(file.name, "whole file", "the file is empty")
    try:
        return file.data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        utf8_error = error
    if b"\x00" not in file.data and _looks_like_cp1252(file.data):
        return file.data.decode("cp1252")
    line = file.data.count(b"\n", 0, utf8_error.start) + 1
    raise ReaderError(
        file.name,
        f"line {line}, byte {utf8_error.start}",
        f"the file is not UTF-8 text (byte 0x{file.data[utf8_error.start]:02x}); save it as UTF-8",
    )


def parse_json(name: str, text: str) -> Any:
    """The JSON document in `text`, or a ReaderError naming the line and column of a syntax
    error, or saying the document nests deeper than the parser can follow (`[[[...]]]` a few
    thousand levels deep exhausts Python's recursion limit)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ReaderError(
            name, f"line {error.lineno}, column {error.colno}", f"invalid JSON: {error.msg}"
        ) from error
    except RecursionError as error:
        raise ReaderError(name, "whole file", "the JSON nests too deeply to be read") from error


def finite_number(value: Any) -> float | None:
    """`value` as a float when it is a JSON number a float holds (not a boolean, not NaN or
    infinite, not a 400-digit integer), else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


MAX_RECORDING_SECONDS = 7 * 24 * 3600
"""The latest time a transcript may give: a week, longer than any recording is aligned.
Beyond it a time is a corrupt file (a 400-digit hour, 1e300 seconds), which would otherwise
reach the database, the editor's JSON (as Infinity) and the window cutter."""


def checked_seconds(name: str, location: str, what: str, seconds: float) -> float:
    """`seconds` when it is a time a recording can have (finite, 0 or more, at most
    MAX_RECORDING_SECONDS), else a ReaderError naming `what` and where it is."""
    if not 0 <= seconds <= MAX_RECORDING_SECONDS:
        limit = MAX_RECORDING_SECONDS // 3600
        if math.isnan(seconds):
            problem = "is not a number"
        elif seconds < 0:
            problem = "is negative"
        else:
            problem = f"is past {limit} hours, longer than any recording"
        raise ReaderError(name, location, f"{what} {_shown(seconds)} {problem}")
    return seconds


def checked_interval(name: str, location: str, start: float | None, end: float | None) -> None:
    """A ReaderError when an item's end comes before its start (both being known)."""
    if start is not None and end is not None and end < start:
        raise ReaderError(
            name, location, f"ends ({_shown(end)} s) before it starts ({_shown(start)} s)"
        )


def _shown(seconds: float) -> str:
    return f"{seconds:.6g}"


_CP1252_UNDEFINED = frozenset({0x81, 0x8D, 0x8F, 0x90, 0x9D})
_CP1252_TYPOGRAPHY = "\u2019\u2018\u201c\u201d\u00ab\u00bb\u2013\u2014\u2026\u20ac\u00b0\u00a0"


def _looks_like_cp1252(data: bytes) -> bool:
    """Non-UTF-8 bytes whose high bytes are all Latin letters or typographic marks in cp1252."""
    high_bytes = {byte for byte in data if byte >= 0x80}
    if high_bytes & _CP1252_UNDEFINED:
        return False
    decoded = codecs.decode(bytes(sorted(high_bytes)), "cp1252")
    return all(char.isalpha() or char in _CP1252_TYPOGRAPHY for char in decoded)
