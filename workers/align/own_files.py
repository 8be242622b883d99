"""A researcher's own report and transcript files as meetings, and their alignments written
as the command line has always written them (one entry per turn) or as the web application
exports aligned pairs (JSON Lines or CSV records of `pairs.shape.FIELDS`)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workers.align.diagnosis import Finding
from workers.align.document_model import Meeting
from workers.align.file_pairing import document_name_of
from workers.align.folds import NEW_DOCUMENT_DEFAULTS, new_document_defaults, with_aligner
from workers.align.learning.prior import load_prior, prior_vectors
from workers.align.learning.turn_decision import LearnedDecision, load_learned
from workers.align.pairs.options import ExportOptions
from workers.align.pairs.shape import AlignedDocument, SegmentRow, TurnRow, candidates
from workers.align.pairs.writers import csv_pieces, jsonl_pieces
from workers.align.params import AlignmentParams, load_params
from workers.align.pipeline import AlignmentResult
from workers.align.readers import Source, read_report, read_transcript, require_content
from workers.align.tokenizers import DEFAULT_LANGUAGE

PAIR_FORMATS = ("jsonl", "csv")


@dataclass(frozen=True)
class ChosenParams:
    """Parameters and where they came from, said to the user beside every result."""

    params: AlignmentParams
    source: str
    learned: LearnedDecision | None = None
    """The decision applied after the path (`pipeline.align_and_decide`): the one a params
    file stores, or for the shipped lexical defaults the lexical prior fitted on the same
    fold, as a new project's first pre-alignment gets it."""


def choose_params(
    path: str | os.PathLike[str] | None,
    aligner: str | None = None,
    brings_vectors: bool = False,
) -> ChosenParams:
    """A params file with the decision it stores, or the shipped defaults for new documents;
    `aligner` switches to that aligner (its own shipped file when it has one). A user who
    `brings_vectors` gets the defaults tuned with trained vectors, whose similarities theirs
    resemble; the others get lexical vectors, the defaults tuned with them, and (on the turn
    path) the lexical prior, as a new project's first pre-alignment does."""
    if path is not None:
        return ChosenParams(
            with_aligner(load_params(Path(path)), aligner), str(path), load_learned(Path(path))
        )
    shipped = new_document_defaults(aligner, "word2vec" if brings_vectors else None)
    params = with_aligner(load_params(shipped), aligner)
    source = (
        f"the shipped defaults {shipped.name} (tuned on public_meetings fold "
        f"{NEW_DOCUMENT_DEFAULTS.upper()})"
    )
    if brings_vectors or prior_vectors(params) != "lexical":
        return ChosenParams(params, source)
    return ChosenParams(
        params,
        f"{source}, with the lexical prior fitted on that fold",
        load_prior(NEW_DOCUMENT_DEFAULTS, "lexical"),
    )


def read_meeting(
    name: str,
    report: Source,
    transcripts: Sequence[Source],
    language: str = DEFAULT_LANGUAGE,
) -> Meeting:
    """A pair of files read by the web upload's readers; raises ReaderError naming the file."""
    report_document = read_report(report, language=language)
    transcript = read_transcript(list(transcripts), language=language)
    require_content(report_document, transcript)
    return Meeting(
        id=name,
        report=report_document,
        transcript=transcript,
        reference=None,
        initial=None,
        language=language,
    )


def meeting_name(report: Path) -> str:
    """The document's name as the web upload gives it: the report's name without extension."""
    return document_name_of(report.name)


def turn_entries(
    meeting: Meeting, result: AlignmentResult, warnings: Sequence[Finding] = ()
) -> dict[str, Any]:
    """`{"ctm": [{"id", "aligned": <segment id or "">, "confidence"}], "warnings": [...]}`,
    one entry per turn, and what `workers.align.diagnosis` found degenerate in them."""
    segment_ids = [segment.id for segment in meeting.report.segments]
    return {
        "ctm": [
            {
                "id": turn.id,
                "aligned": segment_ids[label] if label >= 0 else "",
                "confidence": round(float(confidence), 4),
            }
            for turn, label, confidence in zip(
                meeting.transcript.turns, result.labels, result.confidence, strict=True
            )
        ],
        "warnings": [finding.as_dict() for finding in warnings],
    }


def aligned_document(
    number: int, meeting: Meeting, result: AlignmentResult, options: ExportOptions
) -> AlignedDocument:
    """The shape the web exports read a document in; `number` stands for its database id."""
    return AlignedDocument(
        id=number,
        name=meeting.id,
        meeting=meeting.id,
        iteration=None,
        split=options.split_of(meeting.id),
        origin="automatic",
        labels=[int(label) for label in result.labels],
        confidences=[float(value) for value in result.confidence],
        segments=[
            SegmentRow(segment.index, segment.id, segment.text, segment.speaker or "")
            for segment in meeting.report.segments
        ],
        turns=[
            TurnRow(turn.index, turn.id, turn.text, turn.speaker or "", turn.start, turn.end)
            for turn in meeting.transcript.turns
        ],
    )


def pair_records(documents: Iterable[AlignedDocument], options: ExportOptions) -> Iterator[dict]:
    for document in documents:
        for candidate in candidates(document, options):
            if candidate.rejected_by is None:
                yield candidate.record


def write_pairs(records: Iterable[dict], path: Path, format: str) -> None:
    pieces = jsonl_pieces(records) if format == "jsonl" else csv_pieces(records)
    with path.open("wb") as out:
        for piece in pieces:
            out.write(piece)


def write_turn_entries(
    meeting: Meeting, result: AlignmentResult, path: Path, warnings: Sequence[Finding] = ()
) -> None:
    path.write_text(json.dumps(turn_entries(meeting, result, warnings)) + "\n", encoding="utf-8")
