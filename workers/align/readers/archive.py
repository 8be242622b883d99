"""Zip archives (a .docx is one) checked before anything parses them, so that a small upload
that inflates to hundreds of megabytes is refused instead of occupying a worker for minutes.

The check reads the archive's directory (member count, declared sizes and ratios), then
inflates every member once, in chunks, counting what actually comes out: a member whose
header understates its size is caught too, without holding more than a chunk in memory.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from typing import NoReturn

from workers.align.document_model import ReaderError

_CHUNK_BYTES = 1 << 20
_RATIO_CHECKED_FROM_BYTES = 1 << 20
"""Tiny members compress absurdly well (an empty-ish XML part); only big ones can be bombs."""


@dataclass(frozen=True)
class ArchiveLimits:
    """Bounds on one archive. The defaults are 25 times the largest public_meetings report
    (2.1 MB inflated, 38 members, ratios up to 22)."""

    max_members: int = 1000
    max_uncompressed_bytes: int = 50 * 1024 * 1024
    max_ratio: float = 100.0


DEFAULT_LIMITS = ArchiveLimits()


def check_archive(name: str, data: bytes, limits: ArchiveLimits) -> None:
    """Raise a ReaderError naming the limit `data`, a zip archive, goes over. Data that is
    not a zip archive passes: it inflates to nothing, and its reader says what is wrong."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        return
    with archive:
        members = archive.infolist()
        if len(members) > limits.max_members:
            _refuse(name, f"it holds {len(members)} files; at most {limits.max_members} are read")
        declared = sum(member.file_size for member in members)
        _check_total(name, declared, len(data), limits)
        for member in members:
            _check_ratio(name, member.filename, member.file_size, member.compress_size, limits)
        actual = 0
        for member in members:
            inflated = _inflated_size(name, archive, member, limits.max_uncompressed_bytes - actual)
            _check_ratio(name, member.filename, inflated, member.compress_size, limits)
            actual += inflated
        _check_total(name, actual, len(data), limits)


def _check_total(name: str, size: int, archive_bytes: int, limits: ArchiveLimits) -> None:
    if size > limits.max_uncompressed_bytes:
        _refuse(
            name,
            f"it inflates to {_mb(size)}; at most {_mb(limits.max_uncompressed_bytes)} are read",
        )
    if size > _RATIO_CHECKED_FROM_BYTES and size > limits.max_ratio * max(1, archive_bytes):
        _refuse(
            name,
            f"it inflates {size / max(1, archive_bytes):.0f} times; at most "
            f"{limits.max_ratio:.0f} times is read",
        )


def _check_ratio(name: str, member: str, size: int, compressed: int, limits: ArchiveLimits) -> None:
    if size > _RATIO_CHECKED_FROM_BYTES and size > limits.max_ratio * max(1, compressed):
        _refuse(
            name,
            f"its part {member} inflates {size / max(1, compressed):.0f} times; at most "
            f"{limits.max_ratio:.0f} times is read",
        )


def _inflated_size(
    name: str, archive: zipfile.ZipFile, member: zipfile.ZipInfo, budget: int
) -> int:
    """Bytes the member inflates to, reading no further than `budget` + one chunk."""
    size = 0
    try:
        with archive.open(member) as stream:
            while chunk := stream.read(_CHUNK_BYTES):
                size += len(chunk)
                if size > budget:
                    break
    except (zipfile.BadZipFile, NotImplementedError, RuntimeError, EOFError) as error:
        raise ReaderError(name, member.filename, f"cannot be inflated: {error}") from error
    return size


def _mb(size: int) -> str:
    if size < 100 * 1024:
        return f"{size / 1024:.0f} KB"
    return f"{size / (1024 * 1024):.1f} MB"


def _refuse(name: str, problem: str) -> NoReturn:
    raise ReaderError(name, "whole file", f"refused as a decompression bomb: {problem}")
