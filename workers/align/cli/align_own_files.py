"""`align --report FILE --transcript FILE` and `align --pairs DIR`: the command line on a
researcher's own files, read and paired as the web upload reads and pairs them."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from workers.align.cli import progress
from workers.align.cli.errors import DataError, UsageError, vectors_option
from workers.align.diagnosis import Finding, diagnose_meeting
from workers.align.document_model import Meeting, ReaderError
from workers.align.file_pairing import PlannedPair, plan_folder
from workers.align.own_files import (
    PAIR_FORMATS,
    aligned_document,
    choose_params,
    meeting_name,
    pair_records,
    read_meeting,
    write_pairs,
    write_turn_entries,
)
from workers.align.pairs.options import ExportOptions
from workers.align.pairs.shape import FILTERS
from workers.align.params import AlignmentParams
from workers.align.pipeline import AlignmentResult, align_and_decide, corpus_vectors
from workers.align.readers import report_summary, transcript_summary

if TYPE_CHECKING:
    from gensim.models import KeyedVectors


def wants_own_files(args: argparse.Namespace) -> bool:
    return bool(args.report or args.transcript or args.pairs)


def export_options(args: argparse.Namespace) -> ExportOptions:
    return ExportOptions(include_automatic=True, **{name: getattr(args, name) for name in FILTERS})


def diagnosed(
    results: Sequence[tuple[Meeting, AlignmentResult]], *, confidence: bool = True
) -> dict[str, list[Finding]]:
    """Per document, what `workers.align.diagnosis` finds degenerate in its alignment, each
    finding said on stderr as a warning. `confidence` false: the method gives no confidences
    (a segmentation baseline's zeros, the diagonal's), so they are not judged."""
    findings = {}
    for meeting, result in results:
        confidences = result.confidence if confidence else np.zeros(0)
        findings[meeting.id] = diagnose_meeting(meeting, result.labels, confidences)
        for finding in findings[meeting.id]:
            print(
                f"warning: {meeting.id}: {finding.message} {finding.cause} {finding.do}",
                file=sys.stderr,
            )
    return findings


def warning_rows(findings: dict[str, list[Finding]]) -> list[dict[str, str]]:
    """The findings as the `warnings` field of the command line's JSON summary."""
    return [
        {"document": document, **finding.as_dict()}
        for document, found in findings.items()
        for finding in found
    ]


def write_results(
    results: Sequence[tuple[Meeting, AlignmentResult]],
    args: argparse.Namespace,
    one_file: bool,
    findings: dict[str, list[Finding]],
) -> list[str]:
    """Per-turn JSON files (one file when `one_file`), with each document's findings, or
    every pair in one JSONL/CSV file."""
    out = Path(args.out)
    if args.format in PAIR_FORMATS:
        out.parent.mkdir(parents=True, exist_ok=True)
        options = export_options(args)
        documents = (
            aligned_document(number, meeting, result, options)
            for number, (meeting, result) in enumerate(results, start=1)
        )
        write_pairs(pair_records(documents, options), out, args.format)
        return [str(out)]
    if one_file:
        out.parent.mkdir(parents=True, exist_ok=True)
        meeting, result = results[0]
        write_turn_entries(meeting, result, out, findings[meeting.id])
        return [str(out)]
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for meeting, result in results:
        path = out / f"{meeting.id}.json"
        write_turn_entries(meeting, result, path, findings[meeting.id])
        written.append(str(path))
    return written


def command_align_own(args: argparse.Namespace) -> int:
    requested, problems = _requested_pairs(args)
    chosen = choose_params(args.params, args.aligner, brings_vectors=bool(args.vectors))
    print(f"parameters: {chosen.source}", file=sys.stderr)
    meetings = []
    for name, report, transcripts in requested:
        try:
            meeting = read_meeting(name, report, transcripts, args.language)
        except ReaderError as error:
            problems[name] = str(error)
            continue
        meetings.append(meeting)
        print(f"{name}: {meeting.report.source}: {report_summary(meeting.report)}", file=sys.stderr)
        print(
            f"{name}: {meeting.transcript.source}: {transcript_summary(meeting.transcript)}",
            file=sys.stderr,
        )
    for name, problem in problems.items():
        print(f"{name}: not aligned: {problem}", file=sys.stderr)
    if not meetings:
        raise DataError(
            "nothing to align: every pair above has a problem"
            if args.pairs is not None
            else next(iter(problems.values()))
        )
    vectors = _vectors(args.vectors, meetings, chosen.params)
    results = [
        (meeting, align_and_decide(meeting, chosen.params, vectors, chosen.learned))
        for meeting in progress.bar(meetings, desc="aligning", unit="document")
    ]
    findings = diagnosed(results, confidence=chosen.params.aligner != "diagonal")
    written = write_results(results, args, one_file=args.pairs is None, findings=findings)
    summary = {
        "written": written,
        "params": chosen.source,
        "language": args.language,
        "not_aligned": problems,
        "documents": {meeting.id: _reading(meeting) for meeting in meetings},
        "warnings": warning_rows(findings),
    }
    if args.json:
        print(json.dumps(summary))
    else:
        print(
            f"aligned {len(results)} documents in {args.language!r} with {chosen.source}; "
            f"wrote {', '.join(written)}"
        )
    return 1 if problems else 0


def _reading(meeting: Meeting) -> dict[str, object]:
    """How the document's files were cut, as the web import reports it."""
    return {
        "segments": len(meeting.report.segments),
        "segmented_by": meeting.report.segmented_by,
        "turns": len(meeting.transcript.turns),
        "timed_pieces": meeting.transcript.pieces,
    }


def _requested_pairs(
    args: argparse.Namespace,
) -> tuple[list[tuple[str, Path, list[Path]]], dict[str, str]]:
    if args.meetings:
        raise UsageError("--meetings selects public_meetings meetings; not with own files")
    if args.method != "dp":
        raise UsageError("--method applies to public_meetings; give own files a --params file")
    if args.pairs is not None:
        if args.report or args.transcript:
            raise UsageError("give either --pairs or --report/--transcript, not both")
        plan = plan_folder(args.pairs)
        if not plan:
            raise UsageError(f"--pairs {args.pairs}: the folder holds no report or transcript")
        problems = {pair.name: _folder_problem(pair, args.pairs) for pair in plan if pair.problem}
        ready = [
            (pair.name, pair.report, list(pair.transcripts))
            for pair in plan
            if pair.problem is None and pair.report is not None
        ]
        return ready, problems
    if args.report is None or not args.transcript:
        raise UsageError("own files need both --report FILE and --transcript FILE")
    return [(meeting_name(args.report), args.report, list(args.transcript))], {}


def _folder_problem(pair: PlannedPair, folder: Path) -> str:
    """The pairing problem said in terms of the folder's files (the web upload's wording
    speaks of its drop zones)."""
    if pair.reports == 0:
        found = ", ".join(path.name for path in pair.transcripts) or "a recording"
        return (
            f"no report for {found} in {folder}: add {pair.name}.docx, .txt or .md beside it "
            "(a report and its transcripts pair by name)"
        )
    if not pair.transcripts:
        report = pair.report.name if pair.report is not None else pair.name
        return (
            f"no transcript for {report} in {folder}: add {pair.name}.srt, .vtt or .json, or "
            f"its .ctm parts ({pair.name}.1.ctm, {pair.name}.2.ctm), beside it"
        )
    return pair.problem or ""


def _vectors(
    path: str | None, meetings: Sequence[Meeting], params: AlignmentParams
) -> KeyedVectors | None:
    if path:
        return vectors_option(path)
    if params.aligner == "diagonal" or params.scoring.method != "embedding":
        return None
    with progress.epochs("training word vectors on these texts") as on_epoch:
        return corpus_vectors(meetings, params.vectors, on_epoch)
