"""Readers turning uploaded reports and transcripts into the alignment document model.

Formats are chosen by file extension, falling back to sniffing the content when the
extension is unknown, so that a renamed upload still reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from os import PathLike
from pathlib import PurePath

from workers.align.document_model import Paper, ReaderError, Report, Transcript
from workers.align.readers._input import (
    InputFile,
    Source,
    decode_text,
    finite_number,
    load_input,
    parse_json,
)
from workers.align.readers._speakers import SPEAKER_RULE
from workers.align.readers._turns import TimedText, build_transcript
from workers.align.readers.archive import DEFAULT_LIMITS, ArchiveLimits, check_archive
from workers.align.readers.ctm import read_ctm
from workers.align.readers.description import read_description
from workers.align.readers.docx import docx_text, read_docx
from workers.align.readers.paper_text import read_markdown_paper, read_text_paper
from workers.align.readers.pdf import PDF_MAGIC, read_pdf
from workers.align.readers.plain import read_plain_report
from workers.align.readers.science_parse import read_science_parse
from workers.align.readers.subtitles import read_srt, read_vtt
from workers.align.readers.tei import read_tei
from workers.align.readers.whisper_json import read_whisper_json
from workers.align.tokenizers import DEFAULT_LANGUAGE, tokenizer_for

__all__ = [
    "DESCRIPTION_EXTENSIONS",
    "PAPER_EXTENSIONS",
    "PDF_MAGIC",
    "RECORDING_EXTENSIONS",
    "REPORT_EXTENSIONS",
    "SEGMENTATION_RULES",
    "TRANSCRIPT_EXTENSIONS",
    "ArchiveLimits",
    "InputFile",
    "Source",
    "check_archive",
    "decode_text",
    "finite_number",
    "parse_json",
    "read_description",
    "read_description_file",
    "read_paper",
    "read_report",
    "read_transcript",
    "report_summary",
    "require_content",
    "transcript_from_texts",
    "transcript_summary",
]

REPORT_EXTENSIONS = (".docx", ".txt", ".md")
DESCRIPTION_EXTENSIONS = (".txt", ".md")
RECORDING_EXTENSIONS = (".wav", ".mp3", ".ogg", ".oga", ".opus", ".m4a", ".mp4", ".aac", ".flac")
"""A document's recording: no reader opens it (annotators listen to it), but pairing files
by name must know it from an unreadable file."""
TRANSCRIPT_EXTENSIONS = (".ctm", ".srt", ".vtt", ".json")
PAPER_EXTENSIONS = (".md", ".txt", ".xml", ".tei", ".pdf", ".json")

_ZIP_MAGIC = b"PK\x03\x04"

SEGMENTATION_RULES = {
    "speakers": "one per speaker intervention or titled section",
    "paragraphs": "one per paragraph (the report names no speaker on a 'Name :' line)",
    "sentences": "one per sentence",
    "sections": "one per section of the paper",
}
"""How a report was cut (`Report.segmented_by`), in the words the web import and the command
line say it."""


def report_summary(report: Report) -> str:
    """'12 segments, one per speaker intervention or titled section', and for a typed report
    (.txt, .md) what counts as a speaker line."""
    summary = f"{len(report.segments)} segments, {SEGMENTATION_RULES[report.segmented_by]}"
    if PurePath(report.source).suffix.lower() in (".txt", ".md"):
        summary += f"; {SPEAKER_RULE}"
    return summary


def transcript_summary(transcript: Transcript) -> str:
    """'21 turns from 40 cues', when the reader merged consecutive pieces of one speaker."""
    turns = f"{len(transcript.turns)} turns"
    if transcript.pieces is None or transcript.pieces == len(transcript.turns):
        return turns
    return (
        f"{turns} from {transcript.pieces} timed pieces (cues or segments): consecutive "
        "pieces of one speaker make one turn"
    )


def read_report(
    source: Source,
    filename: str | None = None,
    language: str = DEFAULT_LANGUAGE,
    archive_limits: ArchiveLimits = DEFAULT_LIMITS,
) -> Report:
    """`language` (a code such as `fr` or `en-GB`) chooses the tokenizer; `archive_limits`
    bound what a .docx may inflate to."""
    file = load_input(source, filename)
    kind = _report_kind(file)
    tokenizer = tokenizer_for(language)
    if kind == ".docx":
        return read_docx(file, tokenizer, archive_limits)
    return read_plain_report(file, markdown=kind == ".md", tokenizer=tokenizer)


def read_description_file(
    source: Source, filename: str | None = None, language: str = DEFAULT_LANGUAGE
) -> Report:
    """A description or abstract (plain text, Markdown or .docx, as reports), one segment per
    sentence."""
    file = load_input(source, filename)
    text = docx_text(file) if _report_kind(file) == ".docx" else None
    return read_description(file, tokenizer_for(language), text)


def read_paper(
    source: Source, filename: str | None = None, language: str = DEFAULT_LANGUAGE
) -> Paper:
    """A paper in sections: Markdown or plain text with headings, GROBID's TEI XML (.xml,
    .tei, .tei.xml), science-parse's JSON or a PDF with a text layer."""
    file = load_input(source, filename)
    kind = _paper_kind(file)
    tokenizer = tokenizer_for(language)
    if kind == ".pdf":
        return read_pdf(file, tokenizer)
    if kind in (".xml", ".tei"):
        return read_tei(file, tokenizer)
    if kind == ".json":
        return read_science_parse(file, tokenizer)
    if kind == ".md":
        return read_markdown_paper(file, tokenizer)
    return read_text_paper(file, tokenizer)


def read_transcript(
    sources: Source | Sequence[Source],
    filenames: str | Sequence[str] | None = None,
    language: str = DEFAULT_LANGUAGE,
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
    tokenizer = tokenizer_for(language)
    if kind == ".ctm":
        return read_ctm(files, tokenizer)
    readers = {".srt": read_srt, ".vtt": read_vtt, ".json": read_whisper_json}
    return readers[kind](files[0], tokenizer)


def transcript_from_texts(
    texts: Sequence[str], source: str = "turns", language: str = DEFAULT_LANGUAGE
) -> Transcript:
    """One turn per text, without speakers or times: a transcript typed or pasted by hand."""
    pieces = [TimedText(text, None, None, None) for text in texts]
    return build_transcript(pieces, source, tokenizer_for(language))


def require_content(report: Report, transcript: Transcript) -> None:
    """A pair to align needs at least one segment and one turn."""
    if not report.segments:
        raise ReaderError(report.source, "whole file", "the report has no speaker intervention")
    if not transcript.turns:
        raise ReaderError(transcript.source, "whole file", "the transcript has no turn")


def _load_all(
    sources: Source | Sequence[Source], filenames: str | Sequence[str] | None
) -> list[InputFile]:
    given: list[Source] = (
        [sources] if isinstance(sources, str | bytes | PathLike) else list(sources)
    )
    names: list[str | None] = (
        [filenames] * len(given)
        if filenames is None or isinstance(filenames, str)
        else list(filenames)
    )
    if len(names) != len(given):
        raise ValueError("give one filename per source")
    if not given:
        raise ValueError("no transcript file given")
    return [load_input(source, name) for source, name in zip(given, names, strict=True)]


def _extension(file: InputFile) -> str:
    return PurePath(file.name).suffix.lower()


def _report_kind(file: InputFile) -> str:
    extension = _extension(file)
    if extension in REPORT_EXTENSIONS:
        return extension
    if file.data.startswith(_ZIP_MAGIC):
        return ".docx"
    return ".md" if file.data.lstrip().startswith(b"#") else ".txt"


def _paper_kind(file: InputFile) -> str:
    extension = _extension(file)
    if extension in PAPER_EXTENSIONS:
        return extension
    head = file.data.lstrip(b"\xef\xbb\xbf \t\r\n")[:100]
    if head.startswith(PDF_MAGIC):
        return ".pdf"
    if head.startswith(b"<"):
        return ".xml"
    if head.startswith(b"{"):
        return ".json"
    return ".md" if head.startswith(b"#") else ".txt"


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
