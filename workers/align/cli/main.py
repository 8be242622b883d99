"""`tandem-align` (or `python -m workers.align`) align|evaluate|tune|gold|summarize|salience|bench:
the engine from a terminal.

This module is the command line's grammar and nothing else: it imports no numpy, numba,
gensim or corpus, so that `--help` and a mistyped option answer at once; each command's
module is imported when that command runs. Progress bars go to stderr so that --json output
on stdout stays machine-readable, when stderr is a terminal; --progress forces them on (a log,
CI), --quiet off (`workers.align.cli.progress`).

Exit status: 0 done; 2 the command line is wrong (an option's value, options that exclude
each other, a file that does not exist, more folds than gold documents); 1 a file's content
cannot be used (malformed, empty, of the wrong kind); each with one line naming the file,
the place in it and what to do.
"""

from __future__ import annotations

import argparse
import importlib
import math
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from workers.align.cli import progress
from workers.align.cli.errors import DataError, UsageError
from workers.align.pairs.options import ExportOptions
from workers.align.tokenizers import DEFAULT_LANGUAGE

# Names the engine defines in modules that import numpy, numba or gensim; written out here so
# that the parser stays light. tests/align/cli/test_cli_start.py checks each against its source.
ALIGNER_NAMES = ("turns", "gapped", "dp", "diagonal", "hmm")
"""workers.align.params.ALIGNERS"""
OBJECTIVE_NAMES = ("balanced", "turns")
"""workers.align.tuning.tune.OBJECTIVES"""
GRID_NAMES = ("default", "paper", "hmm")
"""workers.align.tuning.tune.GRIDS"""
PAIR_FORMATS = ("jsonl", "csv")
"""workers.align.own_files.PAIR_FORMATS"""
PAIR_FILTERS = (
    "min_agreement",
    "min_confidence",
    "min_words",
    "max_words",
    "min_sentences",
    "max_sentences",
)
"""workers.align.pairs.shape.FILTERS"""
EXCLUDED_SECTIONS = ("abstract", "related work", "acknowledgments")
"""workers.align.talks.paper_states.DEFAULT_EXCLUDED"""
PAPER_EXTENSIONS = (".md", ".txt", ".xml", ".tei", ".pdf", ".json")
"""workers.align.readers.PAPER_EXTENSIONS"""
WINDOW_SECONDS = 30.0
"""workers.align.podcasts.time_windows.WindowConfig().seconds"""
SALIENCE_TAU = 0.2
"""workers.align.podcasts.salience.SalienceConfig().tau"""

_FILTER_TYPES: dict[str, Callable[[str], Any]] = {"min_confidence": float}

_CLEAN_HELP = (
    "drop the description's sentences whose salience (sum of the IDFs of their words over "
    "the descriptions of --corpus plus this one) is below sigma=10, counting only words seen "
    "5 times or more with an IDF above 1.5, after URLs, e-mails, @usernames, #hashtags, "
    "numbers and long tokens become placeholders. On a tiny corpus this drops everything: "
    "with N descriptions no word's IDF exceeds ln(N), so with fewer than 5 no word counts "
    "and every sentence scores 0. Give hundreds of descriptions of the same show or platform."
)
_SALIENCE_DESCRIPTION = """\
The podcast paper's training labels on one episode, as JSON.

The transcript is cut into time windows; each window is labelled salient when its ROUGE-2
recall against some sentence of the description is above tau. With --clean, the
description's sentences are first scored by the IDF of their words over a corpus of
descriptions (--corpus, one file per episode, plus this one) and those below sigma dropped.
"""


def existing_file(value: str) -> Path:
    """An argument naming a file that must exist (a usage error, before any work, if not)."""
    path = Path(value)
    if path.is_file():
        return path
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{value} is a folder; give a file")
    raise argparse.ArgumentTypeError(f"no such file: {value} (check the path)")


def existing_folder(value: str) -> Path:
    path = Path(value)
    if path.is_dir():
        return path
    raise argparse.ArgumentTypeError(f"no such folder: {value} (check the path)")


def existing_path(value: str) -> Path:
    path = Path(value)
    if path.exists():
        return path
    raise argparse.ArgumentTypeError(f"no such file or folder: {value} (check the path)")


def grid_name_or_file(value: str) -> str:
    if value in GRID_NAMES or Path(value).is_file():
        return value
    raise argparse.ArgumentTypeError(
        f"{value} is neither a grid name ({', '.join(GRID_NAMES)}) nor a file"
    )


def folds(value: str) -> int:
    try:
        k = int(value)
    except ValueError:
        k = 0
    if k < 2:
        raise argparse.ArgumentTypeError(f"{value}: give a whole number of folds, 2 or more")
    return k


def positive_seconds(value: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        seconds = math.nan
    if not (math.isfinite(seconds) and seconds > 0):
        raise argparse.ArgumentTypeError(f"{value}: give a positive number of seconds, such as 30")
    return seconds


def _add_common(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("--corpus", default="public_meetings", choices=["public_meetings"])
    sub.add_argument("--meetings", help="comma-separated meeting ids or id prefixes")
    sub.add_argument(
        "--params",
        type=existing_file,
        help="params file written by tune --out (default: shipped cross-fitted defaults)",
    )
    sub.add_argument(
        "--vectors", type=existing_file, help="word2vec/fastText file instead of corpus-trained"
    )
    sub.add_argument(
        "--method",
        choices=["dp", "diagonal", "texttiling", "c99"],
        default="dp",
        help="dp: the aligner of --params or the shipped defaults; diagonal: the paper's "
        "first iteration; texttiling/c99: segmentation baselines given the segment count",
    )
    sub.add_argument(
        "--aligner",
        choices=ALIGNER_NAMES,
        help="align with this aligner: its own cross-fitted defaults when it has them "
        "(hmm), else the shipped shared settings (or --params) with its defaults",
    )
    sub.add_argument("--json", action="store_true")


def _add_own_file_arguments(parser: argparse.ArgumentParser) -> None:
    own = parser.add_argument_group("own files (instead of --corpus)")
    own.add_argument(
        "--report",
        type=existing_file,
        help=".docx, .txt or .md report (speakers on 'Alice Brown:' lines; docs/your-own-data.md)",
    )
    own.add_argument(
        "--transcript",
        type=existing_file,
        action="append",
        default=[],
        help=".srt, .vtt, Whisper .json or .ctm transcript; repeat it for the parts of a .ctm",
    )
    own.add_argument(
        "--pairs",
        type=existing_folder,
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
    for name in PAIR_FILTERS:
        filters.add_argument(
            f"--{name.replace('_', '-')}",
            type=_FILTER_TYPES.get(name, int),
            default=getattr(defaults, name),
            help=f"default {getattr(defaults, name)}",
        )


def _add_gold_arguments(parser: argparse.ArgumentParser, tuning_options: bool) -> None:
    gold = parser.add_argument_group("own gold (instead of --corpus)")
    gold.add_argument(
        "--gold",
        type=existing_path,
        help="a gold file (docs/your-own-data.md; a Tandem project's "
        "exports/public-meetings.json is one), or a folder in the public_meetings package's "
        "layout (<hash>.aligned.pckl); its documents with gold",
    )
    gold.add_argument(
        "--cv",
        type=folds,
        metavar="K",
        help="K-fold cross-validation by document: each fold is aligned with parameters "
        "tuned on the other folds only (K from 2 to the number of gold documents)",
    )
    gold.add_argument("--seed", type=int, default=0, help="seed of the --cv folds (recorded)")
    if tuning_options:
        gold.add_argument(
            "--grid",
            type=grid_name_or_file,
            default="default",
            help="with --cv: the grid each fold is tuned with, as tune's",
        )
        gold.add_argument(
            "--stages",
            help="with --cv: successive halving, as tune's (default: every setting on all)",
        )
        gold.add_argument("--objective", choices=OBJECTIVE_NAMES, default="balanced")
        gold.add_argument(
            "--learn",
            action="store_true",
            help="with --cv: also fit the learned decision on each fold's training gold and "
            "decide the fold with it (corrected labels, calibrated confidence)",
        )


def _add_align(commands: argparse._SubParsersAction) -> None:
    align = commands.add_parser(
        "align", help="align own files (--report/--transcript, --pairs) or public_meetings"
    )
    _add_common(align)
    _add_own_file_arguments(align)
    align.add_argument("--out", required=True)
    align.set_defaults(handler="commands:command_align", parser=align)


def _add_evaluate(commands: argparse._SubParsersAction) -> None:
    evaluate = commands.add_parser(
        "evaluate", help="metrics against the corpus reference or own gold (--gold)"
    )
    _add_common(evaluate)
    _add_gold_arguments(evaluate, tuning_options=True)
    evaluate.set_defaults(handler="commands:command_evaluate", parser=evaluate)


def _add_tune(commands: argparse._SubParsersAction) -> None:
    tune = commands.add_parser("tune", help="grid-search parameters on training meetings")
    tune.add_argument("--corpus", default="public_meetings", choices=["public_meetings"])
    tune.add_argument(
        "--train", help="comma-separated meeting ids or prefixes (default with --gold: all)"
    )
    tune.add_argument("--out", required=True, help="params file to write")
    tune.add_argument("--params", type=existing_file, help="base params the grid varies")
    tune.add_argument(
        "--grid",
        type=grid_name_or_file,
        default="default",
        help="'default' (the grid the shipped defaults were tuned with), 'paper' (the paper's "
        "path with abstention), 'hmm' or a JSON file {\"section.name\": [values]}",
    )
    tune.add_argument(
        "--stages",
        help="successive halving as meetings:keep,... such as 3:0.1,6:0.2,11:0 (default: "
        "every setting on every training meeting, as the shipped defaults were tuned)",
    )
    tune.add_argument(
        "--objective",
        choices=OBJECTIVE_NAMES,
        default="balanced",
        help="rank by segment + word accuracy - WindowDiff (balanced) or by the share of "
        "turns aligned right (turns)",
    )
    tune.add_argument("--vectors", type=existing_file)
    tune.add_argument(
        "--excerpts",
        type=int,
        metavar="SEGMENTS",
        help="also tune on the training meetings cut into excerpts of this many report "
        "segments, so the parameters suit short documents too (the lexical defaults: 10)",
    )
    tune.add_argument(
        "--learn",
        action="store_true",
        help="also fit, on the same gold, per-turn corrections (kept only if they beat the "
        "path on held-out documents) and a calibrated confidence, stored in the params file "
        "for align to apply (with --cv, each fold's held-out figures are decided so too)",
    )
    _add_gold_arguments(tune, tuning_options=False)
    tune.add_argument("--json", action="store_true")
    tune.set_defaults(handler="commands:command_tune", parser=tune)


def _add_summarize(commands: argparse._SubParsersAction) -> None:
    summarize = commands.add_parser(
        "summarize",
        help="rank a paper's sentences by a talk's words and draw TalkSumm's summaries",
        description="TalkSumm on a researcher's own files: the paper's sentences ranked by "
        "the talk's words, and summaries, as JSON.",
    )
    summarize.add_argument(
        "--report",
        type=existing_file,
        required=True,
        help=f"the paper: {', '.join(PAPER_EXTENSIONS)} (Markdown/text with headings, "
        "GROBID TEI, PDF, science-parse JSON)",
    )
    summarize.add_argument(
        "--transcript",
        type=existing_file,
        action="append",
        required=True,
        help=".srt, .vtt, Whisper .json or .ctm; repeat it for the parts of a .ctm",
    )
    summarize.add_argument("--language", default=DEFAULT_LANGUAGE)
    summarize.add_argument(
        "--params",
        type=existing_file,
        help="an hmm params file (default: the shipped hmm defaults, fold A)",
    )
    summarize.add_argument(
        "--vectors", type=existing_file, help="word2vec/fastText file instead of training"
    )
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
        default=",".join(EXCLUDED_SECTIONS),
        help="sections left out of the states, comma-separated; '' keeps every section "
        f"(default {','.join(EXCLUDED_SECTIONS)})",
    )
    summarize.add_argument("--out", type=Path, help="write the JSON here instead of stdout")
    summarize.set_defaults(handler="summarize_command:command_summarize", parser=summarize)


def _add_salience(commands: argparse._SubParsersAction) -> None:
    salience = commands.add_parser(
        "salience",
        help="label a timed transcript's time windows as salient against a description",
        description=_SALIENCE_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    salience.add_argument(
        "--transcript",
        type=existing_file,
        nargs="+",
        required=True,
        help="a timed transcript: .ctm (its parts in any order), Whisper .json, .srt or .vtt",
    )
    salience.add_argument(
        "--description",
        type=existing_file,
        required=True,
        help="the episode's description or abstract: plain text, Markdown or .docx",
    )
    salience.add_argument(
        "--window", type=positive_seconds, default=WINDOW_SECONDS, help="seconds (default 30)"
    )
    salience.add_argument(
        "--tau",
        type=float,
        default=SALIENCE_TAU,
        help="a window is salient when its ROUGE-2 recall against a description sentence is "
        "above this (default 0.2, the paper's)",
    )
    salience.add_argument("--clean", action="store_true", help=_CLEAN_HELP)
    salience.add_argument(
        "--corpus",
        type=existing_file,
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
    salience.set_defaults(handler="salience_command:command_salience", parser=salience)


def _add_gold(commands: argparse._SubParsersAction) -> None:
    gold = commands.add_parser(
        "gold",
        help="check a gold file, or write one from a turn-to-segment CSV (docs/gold-format.md)",
    )
    actions = gold.add_subparsers(dest="gold_command", required=True)
    check = actions.add_parser(
        "check", help="what evaluate --gold and tune --gold would read from a gold file"
    )
    check.add_argument("file", type=existing_path, help="a gold file (or corpus folder)")
    check.add_argument("--json", action="store_true")
    check.set_defaults(handler="gold_command:command_gold_check", parser=check)
    from_csv = actions.add_parser(
        "from-csv",
        help="add a document's gold to a gold file from a CSV of turn,segment rows",
        description="Reads the report and transcript as align reads them and labels each "
        "turn with the CSV's segment: columns turn and segment, numbers from 1 (or ids "
        "0_<n>_0 as align writes them), an empty segment for an unaligned turn.",
    )
    from_csv.add_argument("--report", type=existing_file, required=True)
    from_csv.add_argument("--transcript", type=existing_file, action="append", required=True)
    from_csv.add_argument("--csv", type=existing_file, required=True, help="turn,segment rows")
    from_csv.add_argument(
        "--out", type=Path, required=True, help="the gold file, created or added to"
    )
    from_csv.add_argument("--name", help="the document's key (default: the report's name)")
    from_csv.add_argument("--language", default=DEFAULT_LANGUAGE)
    from_csv.set_defaults(handler="gold_command:command_gold_from_csv", parser=from_csv)


def _add_bench(commands: argparse._SubParsersAction) -> None:
    bench = commands.add_parser("bench", help="speed figures as JSON")
    bench.add_argument("--naive-size", type=int, default=60)
    bench.add_argument("--no-tuning", action="store_true", help="skip the grid timing")
    bench.add_argument("--json", action="store_true")
    bench.set_defaults(handler="commands:command_bench", parser=bench)


def program_name() -> str:
    """What the user typed: `tandem-align` when installed, else `python -m workers.align`."""
    called = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    return called if called.startswith("tandem-align") else "python -m workers.align"


def _add_progress_options(parser: argparse.ArgumentParser, default: Any) -> None:
    """--quiet and --progress, before the command or after it: a command's own copies
    default to SUPPRESS so that they do not undo the same option given before the command."""
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument(
        "--quiet", action="store_true", default=default, help="no progress bars on stderr"
    )
    shown.add_argument(
        "--progress",
        action="store_true",
        default=default,
        help="progress bars on stderr even when it is not a terminal (a log, CI); by default "
        "they are shown on a terminal only",
    )


def _add_progress_to_commands(commands: argparse._SubParsersAction) -> None:
    for command in commands.choices.values():
        nested = [a for a in command._actions if isinstance(a, argparse._SubParsersAction)]
        if nested:
            _add_progress_to_commands(nested[0])
        else:
            _add_progress_options(command, argparse.SUPPRESS)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=program_name(),
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_progress_options(parser, False)
    commands = parser.add_subparsers(dest="command", required=True)
    _add_align(commands)
    _add_evaluate(commands)
    _add_tune(commands)
    _add_gold(commands)
    _add_summarize(commands)
    _add_salience(commands)
    _add_bench(commands)
    _add_progress_to_commands(commands)
    return parser


def _handler(reference: str) -> Callable[[argparse.Namespace], int]:
    module, _, function = reference.partition(":")
    return getattr(importlib.import_module(f"workers.align.cli.{module}"), function)


def _data_errors() -> tuple[type[BaseException], ...]:
    """What a command raises for unusable input; imported only once a command failed, when
    the engine's modules are loaded anyway."""
    from workers.align.document_model import ReaderError
    from workers.align.public_meetings_layout import LayoutError
    from workers.align.setting_fields import SettingsError

    return (DataError, ReaderError, LayoutError, SettingsError, OSError)


def main(argv: Sequence[str] | None = None) -> int:
    """The command's exit status; a failure exits as argparse's own errors do (SystemExit
    with status 2 or 1, after one line on stderr), never with a traceback."""
    args = build_parser().parse_args(argv)
    parser: argparse.ArgumentParser = args.parser
    if args.quiet and args.progress:
        parser.error("--quiet and --progress exclude each other: give one")
    progress.configure(quiet=args.quiet, forced=args.progress)
    try:
        return _handler(args.handler)(args)
    except UsageError as error:
        parser.print_usage(sys.stderr)
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        raise SystemExit(2) from error
    except _data_errors() as error:
        print(f"{parser.prog}: error: {data_error_message(error)}", file=sys.stderr)
        raise SystemExit(1) from error


def data_error_message(error: BaseException) -> str:
    """One line naming the file and the problem; an OSError (a file that vanished, an --out
    that cannot be written) says which file and why."""
    if isinstance(error, OSError):
        name = error.filename if error.filename is not None else "a file"
        return f"{name}: {error.strerror or error}"
    return str(error)
