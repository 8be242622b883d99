"""Files become (report, transcript) pairs by name, as the web upload pairs dropped files.

`council-2019.docx` goes with `council-2019.1.ctm` and `council-2019.2.ctm`, `talk_report.md`
with `talk_transcript.srt`, and a recording (`council-2019.mp3`) joins its pair: the
extension, a `.ctm` part number and a trailing role word are ignored, case too. The engine
aligns without the recording; it is named so that a folder pairs as the upload page pairs
it. The upload page does this in the browser (frontend/src/lead/pairing.ts); both
implementations are checked against the same cases, tests/fixtures/pairing-cases.json.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Literal

from workers.align.readers import (
    DESCRIPTION_EXTENSIONS,
    PAPER_EXTENSIONS,
    RECORDING_EXTENSIONS,
    REPORT_EXTENSIONS,
    TRANSCRIPT_EXTENSIONS,
)

FileRole = Literal["report", "transcript", "audio", "unreadable"]
ProjectKind = Literal["meeting", "talk", "podcast"]

REPORT_EXTENSIONS_BY_KIND: dict[ProjectKind, tuple[str, ...]] = {
    "meeting": REPORT_EXTENSIONS,
    "talk": PAPER_EXTENSIONS,
    "podcast": DESCRIPTION_EXTENSIONS,
}
"""What a project's reports are, by its kind: reports, papers or descriptions."""

_PART_NUMBER = re.compile(r"\.\d+$")
_ROLE_WORD = re.compile(
    r"[\s._-]+(report|minutes|transcript|transcription|asr|captions|subtitles)$", re.IGNORECASE
)
_REPORT_WORD = re.compile(r"[\s._-]+(report|minutes)$", re.IGNORECASE)
_DIGITS = re.compile(r"(\d+)")


@dataclass(frozen=True)
class PlannedPair:
    """One document to align; `problem` says why it cannot be, or is None."""

    key: str
    name: str
    """The report's name without extension, as the document's name."""
    report: Path | None
    reports: int
    transcripts: tuple[Path, ...]
    audio: Path | None
    problem: str | None


def _extension(name: str) -> str:
    return PurePath(name).suffix.lower()


def file_role(name: str, kind: ProjectKind = "meeting") -> FileRole:
    """A file's role by its extension. An extension both a report and a transcript may have
    (a talk's `.json`: a science-parse paper or a Whisper transcript) is a transcript unless
    the name ends in a report word (`talk_report.json`)."""
    extension = _extension(name)
    is_report = extension in REPORT_EXTENSIONS_BY_KIND[kind]
    is_transcript = extension in TRANSCRIPT_EXTENSIONS
    if is_report and is_transcript:
        stem = name[: len(name) - len(extension)]
        return "report" if _REPORT_WORD.search(stem) else "transcript"
    if is_report:
        return "report"
    if is_transcript:
        return "transcript"
    if extension in RECORDING_EXTENSIONS:
        return "audio"
    return "unreadable"


def document_name_of(name: str) -> str:
    """The name without its extension, a .ctm part number or a trailing role word."""
    extension = _extension(name)
    stem = name[: len(name) - len(extension)] if extension else name
    if extension == ".ctm":
        stem = _PART_NUMBER.sub("", stem)
    return _ROLE_WORD.sub("", stem) or stem


def stem_of(name: str) -> str:
    """What pairs files: their document name, whatever its case."""
    return document_name_of(name).lower()


def _natural_order(path: Path) -> list[object]:
    return [int(part) if part.isdigit() else part.lower() for part in _DIGITS.split(path.name)]


def plan_pairs(paths: Iterable[Path]) -> list[PlannedPair]:
    """Pairs in the order their keys first appear; unreadable files are left out."""
    groups: dict[str, list[Path]] = {}
    for path in paths:
        if file_role(path.name) != "unreadable":
            groups.setdefault(stem_of(path.name), []).append(path)
    plan = []
    for key, files in groups.items():
        reports = [path for path in files if file_role(path.name) == "report"]
        transcripts = sorted(
            (path for path in files if file_role(path.name) == "transcript"), key=_natural_order
        )
        recordings = [path for path in files if file_role(path.name) == "audio"]
        plan.append(
            PlannedPair(
                key=key,
                name=document_name_of(reports[0].name) if reports else key,
                report=reports[0] if reports else None,
                reports=len(reports),
                transcripts=tuple(transcripts),
                audio=recordings[0] if recordings else None,
                problem=_problem(len(reports), transcripts, len(recordings)),
            )
        )
    return plan


def plan_folder(folder: Path) -> list[PlannedPair]:
    """The pairs of a folder's files (not its subfolders), in name order."""
    return plan_pairs(sorted((p for p in folder.iterdir() if p.is_file()), key=_natural_order))


def _problem(reports: int, transcripts: list[Path], recordings: int) -> str | None:
    if reports == 0:
        return "No report: add a .docx, .txt or .md file, or pair one here."
    if reports > 1:
        return "Two reports: a pair takes one; move the other to its own pair."
    if not transcripts:
        return "No transcript: add .ctm parts, or a .srt, .vtt or .json."
    formats = {_extension(path.name) for path in transcripts}
    if len(formats) > 1 or (len(transcripts) > 1 and ".ctm" not in formats):
        return "Several transcripts: only .ctm recordings come in parts; keep one file otherwise."
    if recordings > 1:
        return "Two recordings: a pair takes one; move the other to its own pair."
    return None
