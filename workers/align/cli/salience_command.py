"""`salience --transcript FILE --description FILE`: the podcast paper's training labels on
one episode, as JSON (the options are in `main`).

The transcript is cut into time windows; each window is labelled salient when its ROUGE-2
recall against some sentence of the description is above tau. With --clean, the
description's sentences are first scored by the IDF of their words over a corpus of
descriptions (--corpus, one file per episode, plus this one) and those below sigma dropped.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from workers.align.cli.errors import DataError, UsageError
from workers.align.document_model import ReaderError, Report
from workers.align.podcasts.descriptions import (
    CleaningConfig,
    ScoredSentence,
    clean_description,
    description_vocabulary,
)
from workers.align.podcasts.salience import SalienceConfig, label_units
from workers.align.podcasts.time_windows import WindowConfig, window_transcript
from workers.align.readers import read_description_file, read_transcript


def command_salience(args: argparse.Namespace) -> int:
    if args.corpus and not args.clean:
        raise UsageError("--corpus serves --clean's IDF; give --clean too")
    try:
        window = WindowConfig(seconds=args.window)
        config = SalienceConfig(tau=args.tau)
    except ValueError as error:
        raise UsageError(str(error)) from error
    try:
        transcript = read_transcript(list(args.transcript), language=args.language)
        windows = window_transcript(transcript, window)
        description = read_description_file(args.description, language=args.language)
        corpus = [read_description_file(path, language=args.language) for path in args.corpus]
    except (ReaderError, ValueError) as error:
        raise DataError(str(error)) from error
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
