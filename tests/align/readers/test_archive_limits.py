"""Decompression bombs, built here: small zip files that inflate to a lot, refused before any
XML parser sees them; real reports pass."""

import io
import re
import struct
import zipfile
from pathlib import Path

import public_meetings
import pytest

from workers.align.document_model import ReaderError
from workers.align.readers import ArchiveLimits, check_archive, read_report
from workers.align.readers.archive import DEFAULT_LIMITS

REAL_REPORT = Path(public_meetings.data_root) / "686239f069621dada25c3408f1867d66.docx"
MB = 1024 * 1024


def docx_with_body(body: bytes) -> bytes:
    """A real report whose document.xml is replaced by `body`."""
    source = zipfile.ZipFile(REAL_REPORT)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target:
        for item in source.infolist():
            data = body if item.filename == "word/document.xml" else source.read(item)
            target.writestr(item.filename, data, compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()


def paragraph_bomb(megabytes: int = 20) -> bytes:
    """The probe's first bomb: a small .docx whose body is megabytes of short paragraphs."""
    paragraph = b"<w:p><w:r><w:t>Une phrase courte.</w:t></w:r></w:p>"
    count = megabytes * MB // len(paragraph)
    return docx_with_body(
        b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
        b"<w:body>" + paragraph * count + b"</w:body></w:document>"
    )


def whitespace_bomb(megabytes: int = 60) -> bytes:
    return docx_with_body(b" " * (megabytes * MB))


def understated(archive: bytes, member: str, declared: int) -> bytes:
    """The archive with `member`'s uncompressed size set to `declared` in both its local
    header and the central directory, as a crafted bomb would lie about it."""
    data = bytearray(archive)
    name = member.encode()
    local = data.index(b"PK\x03\x04")
    while data[local + 30 : local + 30 + len(name)] != name:
        local = data.index(b"PK\x03\x04", local + 4)
    struct.pack_into("<I", data, local + 22, declared)
    central = data.index(b"PK\x01\x02")
    while data[central + 46 : central + 46 + len(name)] != name:
        central = data.index(b"PK\x01\x02", central + 4)
    struct.pack_into("<I", data, central + 24, declared)
    return bytes(data)


def refusal(data: bytes, limits: ArchiveLimits = DEFAULT_LIMITS) -> str:
    with pytest.raises(ReaderError) as caught:
        check_archive("report.docx", data, limits)
    assert caught.value.location in ("whole file", "word/document.xml")
    return caught.value.problem


def test_real_reports_pass():
    data = REAL_REPORT.read_bytes()

    check_archive("report.docx", data, ArchiveLimits())
    assert read_report(data, "report.docx").segments


def test_a_small_docx_of_megabytes_of_paragraphs_is_refused_by_its_ratio():
    bomb = paragraph_bomb()
    assert len(bomb) < 300_000

    problem = refusal(bomb)

    assert "decompression bomb" in problem
    assert "inflates" in problem
    assert "at most 100 times" in problem
    with pytest.raises(ReaderError, match="decompression bomb"):
        read_report(bomb, "report.docx")


def test_a_docx_inflating_past_the_size_limit_is_refused_before_parsing():
    bomb = whitespace_bomb()

    problem = refusal(bomb, ArchiveLimits(max_ratio=10**9))

    assert re.search(r"inflates to 60\.\d MB; at most 50\.0 MB are read", problem)


def test_a_member_that_inflates_beyond_its_declared_size_is_refused():
    bomb = understated(whitespace_bomb(4), "word/document.xml", declared=1000)
    assert zipfile.ZipFile(io.BytesIO(bomb)).getinfo("word/document.xml").file_size == 1000

    with pytest.raises(ReaderError) as caught:
        check_archive("report.docx", bomb, ArchiveLimits())

    assert caught.value.location == "word/document.xml"
    assert "cannot be inflated" in caught.value.problem


def test_an_archive_of_too_many_members_is_refused():
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for index in range(11):
            archive.writestr(f"part{index}.xml", b"<x/>")

    problem = refusal(out.getvalue(), ArchiveLimits(max_members=10))

    assert "it holds 11 files; at most 10 are read" in problem
