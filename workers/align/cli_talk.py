"""`python -m workers.align summarize --report PAPER --transcript TALK`: TalkSumm on a
researcher's own files, the ranked sentences and summaries as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from workers.align.model import ReaderError
from workers.align.own_files import choose_params
from workers.align.paper_summary import summarize_talk, talk_vectors
from workers.align.papers import DEFAULT_EXCLUDED
from workers.align.readers import PAPER_EXTENSIONS, read_paper, read_transcript
from workers.align.scoring.vectors import load_vectors
from workers.align.summaries import SummaryLengths
from workers.align.tokenizers import DEFAULT_LANGUAGE


def add_summarize_parser(commands: argparse._SubParsersAction) -> None:
    summarize = commands.add_parser(
        "summarize",
        help="rank a paper's sentences by a talk's words and draw TalkSumm's summaries",
        description=__doc__,
    )
    summarize.add_argument(
        "--report",
        type=Path,
        required=True,
        help=f"the paper: {', '.join(PAPER_EXTENSIONS)} (Markdown/text with headings, "
        "GROBID TEI, PDF, science-parse JSON)",
    )
    summarize.add_argument(
        "--transcript",
        type=Path,
        action="append",
        required=True,
        help=".srt, .vtt, Whisper .json or .ctm; repeat it for the parts of a .ctm",
    )
    summarize.add_argument("--language", default=DEFAULT_LANGUAGE)
    summarize.add_argument(
        "--params", help="an hmm params file (default: the shipped hmm defaults, fold A)"
    )
    summarize.add_argument("--vectors", help="word2vec/fastText file instead of training")
    summarize.add_argument(
        "--words",
        default="150,250",
        help="summary lengths in words, comma-separated (default 150,250)",
    )
    summarize.add_argument(
        "--ratios",
        default="0.3,0.4",
        help="summary lengths as shares of the paper's words (default 0.3,0.4)",
    )
    summarize.add_argument(
        "--exclude",
        default=",".join(DEFAULT_EXCLUDED),
        help="sections left out of the states, comma-separated; '' keeps every section "
        f"(default {','.join(DEFAULT_EXCLUDED)})",
    )
    summarize.add_argument("--out", type=Path, help="write the JSON here instead of stdout")
    summarize.set_defaults(handler=command_summarize)


def command_summarize(args: argparse.Namespace) -> int:
    lengths = _lengths(args.words, args.ratios)
    excluded = tuple(name.strip() for name in args.exclude.split(",") if name.strip())
    chosen = choose_params(args.params, "hmm" if args.params is None else None)
    print(f"parameters: {chosen.source}", file=sys.stderr)
    try:
        paper = read_paper(args.report, language=args.language)
        transcript = read_transcript(list(args.transcript), language=args.language)
    except ReaderError as error:
        raise SystemExit(str(error)) from error
    if not transcript.turns:
        raise SystemExit(f"{transcript.source}: whole file: the transcript has no turn")
    vectors = None
    if args.vectors:
        vectors = load_vectors(args.vectors)
    elif chosen.params.scoring.method == "embedding":
        print(
            "training word vectors on the paper and the talk (a talk and its paper are little "
            "text for word2vec: --vectors takes pretrained ones)",
            file=sys.stderr,
        )
        vectors = talk_vectors(paper, transcript, chosen.params)
    try:
        summary = summarize_talk(paper, transcript, chosen.params, vectors, lengths, excluded)
    except ValueError as error:
        raise SystemExit(str(error)) from error
    document = {"params": chosen.source, "excluded_sections": list(excluded), **summary.to_dict()}
    text = json.dumps(document, indent=2, ensure_ascii=False)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n", encoding="utf-8")
        print(f"wrote {args.out}", file=sys.stderr)
    else:
        print(text)
    return 0


def _lengths(words: str, ratios: str) -> SummaryLengths:
    try:
        return SummaryLengths(
            words=tuple(int(part) for part in words.split(",") if part.strip()),
            ratios=tuple(float(part) for part in ratios.split(",") if part.strip()),
        )
    except ValueError as error:
        raise SystemExit(f"--words {words!r} --ratios {ratios!r}: {error}") from error
