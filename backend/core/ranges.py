"""HTTP byte ranges (RFC 9110, section 14): what part of a file a `Range` header asks for.

Only a single range is served; a browser's media element asks for no more. A header that
cannot be read is ignored (the whole file, 200), as the RFC allows; one that reads but lies
outside the file is unsatisfiable (416).
"""

import re
from dataclasses import dataclass

_SINGLE_RANGE = re.compile(r"^bytes=(\d*)-(\d*)$")
_LARGEST_OFFSET_DIGITS = 18
_BEYOND_ANY_FILE = 10**_LARGEST_OFFSET_DIGITS


@dataclass(frozen=True)
class ByteRange:
    """Inclusive `first` and `last`, as Content-Range writes them."""

    first: int
    last: int

    @property
    def length(self) -> int:
        return self.last - self.first + 1


class Unsatisfiable(Exception):
    """The range names no byte of the file."""


def requested_range(header: str | None, size: int) -> ByteRange | None:
    """The range `header` asks for in a file of `size` bytes, clipped to the file; None for
    the whole file (no header, or one this server does not read); Unsatisfiable when it
    starts past the end or asks for the last 0 bytes."""
    match = _SINGLE_RANGE.match((header or "").strip())
    if match is None or match.groups() == ("", ""):
        return None
    first_text, last_text = match.groups()
    if not first_text:
        suffix = _offset(last_text)
        if suffix == 0 or size == 0:
            raise Unsatisfiable
        return ByteRange(max(0, size - suffix), size - 1)
    first = _offset(first_text)
    last = _offset(last_text) if last_text else size - 1
    if last_text and last < first:
        return None
    if first >= size:
        raise Unsatisfiable
    return ByteRange(first, min(last, size - 1))


def _offset(digits: str) -> int:
    """A byte offset or count; one of more digits than any file's size needs counts as
    beyond any file, since `int` refuses to read over 4,300 digits (a ValueError, once a
    500) and no file is that large anyway."""
    significant = digits.lstrip("0")
    if len(significant) > _LARGEST_OFFSET_DIGITS:
        return _BEYOND_ANY_FILE
    return int(significant or "0")
