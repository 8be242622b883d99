"""`summarize --report PAPER --transcript TALK`: TalkSumm on a researcher's own files, the
ranked sentences and summaries as JSON (the options are in `main`)."""

from __future__ import annotations

import argparse
import json
import sys

from workers.align.cli import progress
from workers.align.cli.errors import DataError, UsageError, vectors_option
from workers.align.own_files import choose_params
from workers.align.readers import read_paper, read_transcript
from workers.align.talks.importance import SummaryLengths
from workers.align.talks.summarize import summarize_talk, talk_vectors


def command_summarize(args: argparse.Namespace) -> int:
    lengths = _lengths(args.words, args.ratios)
    excluded = tuple(name.strip() for name in args.exclude.split(",") if name.strip())
    chosen = choose_params(args.params, "hmm" if args.params is None else None)
    print(f"parameters: {chosen.source}", file=sys.stderr)
    paper = read_paper(args.report, language=args.language)
    transcript = read_transcript(list(args.transcript), language=args.language)
    if not transcript.turns:
        raise DataError(f"{transcript.source}: whole file: the transcript has no turn")
    vectors = None
    if args.vectors:
        vectors = vectors_option(args.vectors)
    elif chosen.params.scoring.method == "embedding":
        print(
            "training word vectors on the paper and the talk (a talk and its paper are little "
            "text for word2vec: --vectors takes pretrained ones)",
            file=sys.stderr,
        )
        with progress.epochs("training word vectors") as on_epoch:
            vectors = talk_vectors(paper, transcript, chosen.params, on_epoch)
    try:
        summary = summarize_talk(paper, transcript, chosen.params, vectors, lengths, excluded)
    except ValueError as error:
        raise DataError(str(error)) from error
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
        raise UsageError(f"--words {words!r} --ratios {ratios!r}: {error}") from error
