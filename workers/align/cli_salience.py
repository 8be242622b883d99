"""`python -m workers.align salience --transcript FILE --description FILE`: the podcast
paper's training labels on one episode, as JSON.

The transcript is cut into time windows; each window is labelled salient when its ROUGE-2
recall against some sentence of the description is above tau. With --clean, the
description's sentences are first scored by the IDF of their words over a corpus of
descriptions (--corpus, one file per episode, plus this one) and those below sigma dropped.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from workers.align.descriptions import (
    CleaningConfig,
    ScoredSentence,
    clean_description,
    description_vocabulary,
)
from workers.align.model import ReaderError, Report
from workers.align.readers import read_description_file, read_transcript
from workers.align.salience import SalienceConfig, label_units
from workers.align.tokenizers import DEFAULT_LANGUAGE
from workers.align.windows import WindowConfig, window_transcript

_CLEAN_HELP = (
    "drop the description's sentences whose salience (sum of the IDFs of their words over "
    "the descriptions of --corpus plus this one) is below sigma=10, counting only words seen "
    "5 times or more with an IDF above 1.5, after URLs, e-mails, @usernames, #hashtags, "
    "numbers and long tokens become placeholders. On a tiny corpus this drops everything: "
    "with N descriptions no word's IDF exceeds ln(N), so with fewer than 5 no word counts "
    "and every sentence scores 0. Give hundreds of descriptions of the same show or platform."
)


def add_salience_parser(commands: argparse._SubParsersAction) -> None:
    salience = commands.add_parser(
        "salience",
        help="label a timed transcript's time windows as salient against a description",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    salience.add_argument(
        "--transcript",
        type=Path,
        nargs="+",
        required=True,
        help="a timed transcript: .ctm (its parts in any order), Whisper .json, .srt or .vtt",
    )
    salience.add_argument(
        "--description",
        type=Path,
        required=True,
        help="the episode's description or abstract, plain text or Markdown",
    )
    salience.add_argument(
        "--window", type=float, default=WindowConfig().seconds, help="seconds (default 30)"
    )
    salience.add_argument(
        "--tau",
        type=float,
        default=SalienceConfig().tau,
        help="a window is salient when its ROUGE-2 recall against a description sentence is "
        "above this (default 0.2, the paper's)",
    )
    salience.add_argument("--clean", action="store_true", help=_CLEAN_HELP)
    salience.add_argument(
        "--corpus",
        type=Path,
        nargs="+",
        default=[],
        help="other episodes' descriptions, one file each, for --clean's IDF",
    )
    salience.add_argument(
        "--candidates",
        action="store_true",
        help="print only the paper's candidate windows (the first 33 and the last 7)",
    )
    salience.add_argument("--language", default=DEFAULT_LANGUAGE, help="tokenizer's language")
    salience.set_defaults(handler=command_salience, parser=salience)


def command_salience(args: argparse.Namespace) -> int:
    parser: argparse.ArgumentParser = args.parser
    if args.corpus and not args.clean:
        parser.error("--corpus serves --clean's IDF; give --clean too")
    try:
        window = WindowConfig(seconds=args.window)
        config = SalienceConfig(tau=args.tau)
        transcript = read_transcript(list(args.transcript), language=args.language)
        windows = window_transcript(transcript, window)
        description = read_description_file(args.description, language=args.language)
        corpus = [read_description_file(path, language=args.language) for path in args.corpus]
    except (ReaderError, ValueError) as error:
        parser.error(str(error))
    sentences = [segment.text for segment in description.segments]
    scored = _cleaned(description, corpus) if args.clean else None
    kept = (
        [i for i, sentence in enumerate(scored) if sentence.kept]
        if scored is not None
        else list(range(len(sentences)))
    )
    labels = label_units(
        [turn.text for turn in windows.turns], [sentences[i] for i in kept], config
    )
    rows = [
        {
            "index": turn.index,
            "start": turn.start,
            "end": turn.end,
            "text": turn.text,
            "score": label.score,
            "sentence": None if label.sentence is None else kept[label.sentence],
            "salient": label.salient,
            "candidate": label.candidate,
        }
        for turn, label in zip(windows.turns, labels, strict=True)
        if label.candidate or not args.candidates
    ]
    salient = sum(1 for row in rows if row["salient"])
    document: dict[str, Any] = {
        "transcript": transcript.source,
        "description": description.source,
        "window_seconds": window.seconds,
        "tau": config.tau,
        "windows": rows,
        "salient": salient,
        "positive_ratio": salient / len(rows) if rows else None,
        "description_sentences": [
            _sentence_row(i, text, scored[i] if scored is not None else None)
            for i, text in enumerate(sentences)
        ],
    }
    print(json.dumps(document, indent=2, ensure_ascii=False))
    return 0


def _cleaned(description: Report, corpus: list[Report]) -> tuple[ScoredSentence, ...]:
    config = CleaningConfig()
    episodes = [[segment.text for segment in report.segments] for report in [*corpus, description]]
    vocabulary = description_vocabulary(episodes, config)
    scored = clean_description(episodes[-1], vocabulary, config)
    if not any(sentence.kept for sentence in scored):
        print(
            f"cleaning dropped every sentence of {description.source}: "
            f"{len(vocabulary.idf)} words count over {vocabulary.descriptions} descriptions "
            "(see --help on --clean); no window can be salient",
            file=sys.stderr,
        )
    return scored


def _sentence_row(index: int, text: str, scored: ScoredSentence | None) -> dict[str, Any]:
    row: dict[str, Any] = {"index": index, "text": text}
    if scored is not None:
        row.update(salience=scored.salience, kept=scored.kept)
    return row
