"""`align --report FILE --transcript FILE` and `align --pairs DIR`: the command line on a
researcher's own files, read and paired as the web upload reads and pairs them."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from tqdm import tqdm

from workers.align.diagnosis import Finding, diagnose_meeting
from workers.align.learned import load_learned
from workers.align.model import Meeting, ReaderError
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
from workers.align.pairing import plan_folder
from workers.align.pairs.options import ExportOptions
from workers.align.pairs.shape import FILTERS
from workers.align.params import AlignmentParams
from workers.align.pipeline import AlignmentResult, align_and_decide, corpus_vectors
from workers.align.scoring.vectors import load_vectors
from workers.align.tokenizers import DEFAULT_LANGUAGE

_FILTER_TYPES = {"min_confidence": float}


def add_own_file_arguments(parser: argparse.ArgumentParser) -> None:
    own = parser.add_argument_group("own files (instead of --corpus)")
    own.add_argument("--report", type=Path, help=".docx, .txt or .md report")
    own.add_argument(
        "--transcript",
        type=Path,
        action="append",
        default=[],
        help=".srt, .vtt, Whisper .json or .ctm transcript; repeat it for the parts of a .ctm",
    )
    own.add_argument(
        "--pairs",
        type=Path,
        help="folder of reports and transcripts, paired by name as the web upload pairs them "
        "(council.docx with council.1.ctm and council.2.ctm, talk_report.md with "
        "talk_transcript.srt)",
    )
    own.add_argument(
        "--language", default=DEFAULT_LANGUAGE, help="language code choosing the tokenizer"
    )
    parser.add_argument(
        "--format",
        choices=("json", *PAIR_FORMATS),
        default="json",
        help="json: one entry per turn, a file per document (--out is a folder, or the file "
        "itself for --report); jsonl/csv: the aligned pairs as the web exports write them, "
        "all documents in the one file --out",
    )
    filters = parser.add_argument_group("pair filters of --format jsonl/csv (as the web exports)")
    defaults = ExportOptions()
    for name in FILTERS:
        filters.add_argument(
            f"--{name.replace('_', '-')}",
            type=_FILTER_TYPES.get(name, int),
            default=getattr(defaults, name),
            help=f"default {getattr(defaults, name)}",
        )


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
            meetings.append(read_meeting(name, report, transcripts, args.language))
        except ReaderError as error:
            problems[name] = str(error)
    for name, problem in problems.items():
        print(f"{name}: not aligned: {problem}", file=sys.stderr)
    if not meetings:
        raise SystemExit("nothing to align")
    vectors = _vectors(args.vectors, meetings, chosen.params)
    learned = load_learned(args.params) if args.params else None
    results = [
        (meeting, align_and_decide(meeting, chosen.params, vectors, learned))
        for meeting in tqdm(meetings, desc="aligning", unit="document", file=sys.stderr)
    ]
    findings = diagnosed(results, confidence=chosen.params.aligner != "diagonal")
    written = write_results(results, args, one_file=args.pairs is None, findings=findings)
    summary = {
        "written": written,
        "params": chosen.source,
        "not_aligned": problems,
        "warnings": warning_rows(findings),
    }
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"aligned {len(results)} documents with {chosen.source}; wrote {', '.join(written)}")
    return 1 if problems else 0


def _requested_pairs(
    args: argparse.Namespace,
) -> tuple[list[tuple[str, Path, list[Path]]], dict[str, str]]:
    if args.meetings:
        raise SystemExit("--meetings selects public_meetings meetings; not with own files")
    if args.method != "dp":
        raise SystemExit("--method applies to public_meetings; give own files a --params file")
    if args.pairs is not None:
        if args.report or args.transcript:
            raise SystemExit("give either --pairs or --report/--transcript, not both")
        if not args.pairs.is_dir():
            raise SystemExit(f"--pairs {args.pairs}: not a folder")
        plan = plan_folder(args.pairs)
        problems = {pair.name: pair.problem for pair in plan if pair.problem}
        ready = [
            (pair.name, pair.report, list(pair.transcripts))
            for pair in plan
            if pair.problem is None and pair.report is not None
        ]
        return ready, problems
    if args.report is None or not args.transcript:
        raise SystemExit("own files need both --report FILE and --transcript FILE")
    return [(meeting_name(args.report), args.report, list(args.transcript))], {}


def _vectors(path: str | None, meetings: Sequence[Meeting], params: AlignmentParams):
    if path:
        return load_vectors(path)
    if params.aligner == "diagonal" or params.scoring.method != "embedding":
        return None
    if params.vectors.kind == "word2vec":
        print("training word vectors on these texts (cached after the first run)", file=sys.stderr)
    return corpus_vectors(meetings, params.vectors)
