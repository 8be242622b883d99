"""`align_texts`: the engine in one call, for notebooks and scripts.

    from workers.align import align_texts
    result = align_texts(report_text, transcript_text, language="en")
    result.labels, result.confidence
    for warning in result.warnings:  # a degenerate result, said (workers.align.diagnosis)
        print(warning.message, warning.cause, warning.do)

Files are `pathlib.Path`s, or a one-line `str` naming an existing file; any other `str` is
the text itself.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gensim.models import KeyedVectors

from workers.align.diagnosis import Finding, diagnose_meeting
from workers.align.document_model import Meeting, ReaderError, Report, Segment, Transcript, Turn
from workers.align.own_files import ChosenParams, choose_params
from workers.align.params import AlignmentParams
from workers.align.pipeline import align_and_decide, corpus_vectors
from workers.align.readers import (
    REPORT_EXTENSIONS,
    TRANSCRIPT_EXTENSIONS,
    read_report,
    read_transcript,
    require_content,
    transcript_from_texts,
)
from workers.align.scoring.vectors import load_vectors
from workers.align.tokenizers import DEFAULT_LANGUAGE

TextOrPath = str | os.PathLike[str]
_REPORT_NAME, _TRANSCRIPT_NAME = "report", "transcript"
_FILE_EXTENSIONS = frozenset(REPORT_EXTENSIONS + TRANSCRIPT_EXTENSIONS)


@dataclass(frozen=True)
class TextAlignment:
    """Per transcript turn, the position of its report segment (-1: no counterpart in the
    report) and a confidence in [0, 1] (with the shipped defaults, or a params file that
    stores a learned decision, the calibrated probability that the label is right); `params`
    says which parameters gave them, and
    `warnings` what is degenerate about them (every turn on one segment, none aligned...),
    each with its likely cause and what to do: empty when nothing is."""

    labels: list[int]
    confidence: list[float]
    segments: tuple[Segment, ...]
    turns: tuple[Turn, ...]
    params: str
    warnings: tuple[Finding, ...] = ()

    def rows(self) -> list[dict[str, Any]]:
        """One row per turn (for `pandas.DataFrame(result.rows())`)."""
        return [
            {
                "turn": turn.index,
                "speaker": turn.speaker,
                "text": turn.text,
                "segment": label if label >= 0 else None,
                "segment_text": self.segments[label].text if label >= 0 else None,
                "confidence": confidence,
            }
            for turn, label, confidence in zip(
                self.turns, self.labels, self.confidence, strict=True
            )
        ]


def align_texts(
    report: TextOrPath,
    transcript: TextOrPath | Sequence[TextOrPath],
    *,
    language: str = DEFAULT_LANGUAGE,
    params: AlignmentParams | os.PathLike[str] | None = None,
    vectors: KeyedVectors | os.PathLike[str] | None = None,
) -> TextAlignment:
    """Align a report with its transcript.

    `report`: the text of a plain-text or Markdown report ("Alice Brown: ..." lines, a name of
    1 to 4 capitalised words or a title and name before a colon, open a speaker's
    intervention; `#` lines are headings), or the path of any report file the web upload reads.
    `transcript`: the text of an .srt, .vtt, Whisper JSON or .ctm transcript, a list of two or
    more turn texts (one turn each), or the path(s) of transcript files (.ctm parts). `params`: an
    `AlignmentParams` or a params file (with the learned decision it stores, if any); by default
    the shipped defaults for new documents and the lexical prior, a decision fitted on
    public_meetings's gold that corrects labels and calibrates the confidence.
    `vectors`: `KeyedVectors` or a word2vec/fastText file (then the defaults tuned with trained
    vectors); by default lexical vectors, which need no training: stems weighted by their
    rarity in `language`.
    """
    meeting = Meeting(
        id="text",
        report=_report(report, language),
        transcript=_transcript(transcript, language),
        reference=None,
        initial=None,
        language=language,
    )
    require_content(meeting.report, meeting.transcript)
    chosen = (
        ChosenParams(params, "the AlignmentParams given")
        if isinstance(params, AlignmentParams)
        else choose_params(params, brings_vectors=vectors is not None)
    )
    result = align_and_decide(
        meeting, chosen.params, _vectors(vectors, meeting, chosen.params), chosen.learned
    )
    judged = chosen.params.aligner != "diagonal"
    warnings = diagnose_meeting(meeting, result.labels, result.confidence if judged else [])
    return TextAlignment(
        labels=[int(label) for label in result.labels],
        confidence=[float(value) for value in result.confidence],
        segments=meeting.report.segments,
        turns=meeting.transcript.turns,
        params=chosen.source,
        warnings=tuple(warnings),
    )


def _path(value: object) -> Path | None:
    """The file `value` names, or None when it is text. A one-line string ending in a file
    extension the readers know names a file even when there is none there (a typo in a path
    must say the file is missing, not be aligned as a one-word text)."""
    if isinstance(value, os.PathLike):
        path = Path(value)
    elif isinstance(value, str) and "\n" not in value and value.strip():
        path = Path(value.strip())
        if not path.is_file() and path.suffix.lower() not in _FILE_EXTENSIONS:
            return None
    else:
        return None
    if not path.is_file():
        raise ReaderError(path, "file", "no such file (check the path)")
    return path


def _report(report: TextOrPath, language: str) -> Report:
    path = _path(report)
    if path is not None:
        return read_report(path, language=language)
    return read_report(str(report).encode("utf-8"), _REPORT_NAME, language)


def _transcript(transcript: TextOrPath | Sequence[TextOrPath], language: str) -> Transcript:
    items = [transcript] if isinstance(transcript, str | os.PathLike) else list(transcript)
    paths = [path for path in map(_path, items) if path is not None]
    if len(paths) == len(items):
        return read_transcript(paths, language=language)
    texts = [str(item) for item in items]
    if len(texts) == 1:
        return read_transcript(texts[0].encode("utf-8"), _TRANSCRIPT_NAME, language)
    return transcript_from_texts(texts, language=language)


def _vectors(
    vectors: KeyedVectors | os.PathLike[str] | None, meeting: Meeting, params: AlignmentParams
) -> KeyedVectors | None:
    if isinstance(vectors, KeyedVectors):
        return vectors
    if vectors is not None:
        return load_vectors(Path(vectors))
    if params.aligner == "diagonal" or params.scoring.method != "embedding":
        return None
    return corpus_vectors([meeting], params.vectors)
