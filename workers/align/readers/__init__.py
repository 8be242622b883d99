"""Readers turning uploaded reports and transcripts into the alignment document model.

Formats are chosen by file extension, falling back to sniffing the content when the
extension is unknown, so that a renamed upload still reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePath

from workers.align.model import ReaderError, Report, Transcript
from workers.align.readers._input import InputFile, Source, decode_text, load_input
from workers.align.readers.ctm import read_ctm
from workers.align.readers.docx import read_docx
from workers.align.readers.plain import read_plain_report
from workers.align.readers.subtitles import read_srt, read_vtt
from workers.align.readers.whisper_json import read_whisper_json

__all__ = [
    "REPORT_EXTENSIONS",
    "TRANSCRIPT_EXTENSIONS",
    "InputFile",
    "Source",
    "decode_text",
    "read_report",
    "read_transcript",
]

REPORT_EXTENSIONS = (".docx", ".txt", ".md")
TRANSCRIPT_EXTENSIONS = (".ctm", ".srt", ".vtt", ".json")

_ZIP_MAGIC = b"PK\x03\x04"


def read_report(source: Source, filename: str | None = None) -> Report:
    file = load_input(source, filename)
    kind = _report_kind(file)
    if kind == ".docx":
        return read_docx(file)
    return read_plain_report(file, markdown=kind == ".md")


def read_transcript(
    sources: Source | Sequence[Source], filenames: str | Sequence[str] | None = None
) -> Transcript:
    """Read one transcript; several files are accepted only for multi-part CTM recordings."""
    files = _load_all(sources, filenames)
    kinds = {_transcript_kind(file) for file in files}
    if len(kinds) > 1 or (len(files) > 1 and kinds != {".ctm"}):
        raise ReaderError(
            ", ".join(file.name for file in files),
            "file list",
            "only .ctm transcripts may be split across several files",
        )
    kind = kinds.pop()
    if kind == ".ctm":
        return read_ctm(files)
    readers = {".srt": read_srt, ".vtt": read_vtt, ".json": read_whisper_json}
    return readers[kind](files[0])


def _load_all(
    sources: Source | Sequence[Source], filenames: str | Sequence[str] | None
) -> list[InputFile]:
    if isinstance(sources, str | bytes) or not isinstance(sources, Sequence):
        sources = [sources]
    if filenames is None or isinstance(filenames, str):
        filenames = [filenames] * len(sources)
    if len(filenames) != len(sources):
        raise ValueError("give one filename per source")
    if not sources:
        raise ValueError("no transcript file given")
    return [load_input(source, name) for source, name in zip(sources, filenames, strict=True)]


def _extension(file: InputFile) -> str:
    return PurePath(file.name).suffix.lower()


def _report_kind(file: InputFile) -> str:
    extension = _extension(file)
    if extension in REPORT_EXTENSIONS:
        return extension
    if file.data.startswith(_ZIP_MAGIC):
        return ".docx"
    return ".md" if file.data.lstrip().startswith(b"#") else ".txt"


def _transcript_kind(file: InputFile) -> str:
    extension = _extension(file)
    if extension in TRANSCRIPT_EXTENSIONS:
        return extension
    head = file.data.lstrip(b"\xef\xbb\xbf \t\r\n")[:200]
    if head.startswith(b"WEBVTT"):
        return ".vtt"
    if head.startswith((b"{", b"[")):
        return ".json"
    if b"-->" in head:
        return ".srt"
    if b"<start=" in head:
        return ".ctm"
    raise ReaderError(
        file.name,
        "file name",
        f"unknown transcript format; expected one of {', '.join(TRANSCRIPT_EXTENSIONS)}",
    )
