"""`evaluate --gold FILE` and `tune --gold FILE`: the command line on a researcher's own gold,
a Tandem project exported in the public_meetings layout or a folder in the corpus package's
layout, with K-fold cross-validation by document (`--cv K --seed S`)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from gensim.models import KeyedVectors

from workers.align.cli import progress
from workers.align.cli.errors import DataError, UsageError, vectors_option
from workers.align.corpus import meeting_ids
from workers.align.document_model import Meeting
from workers.align.folds import shipped_defaults, with_aligner
from workers.align.own_files import choose_params
from workers.align.params import AlignmentParams, load_params
from workers.align.paths.turn_dp import TurnSettings
from workers.align.pipeline import (
    AlignmentResult,
    align_and_decide,
    align_meeting,
    corpus_vectors,
    fit_learned_decision,
)
from workers.align.public_meetings_layout import LayoutError, read_gold
from workers.align.tuning.crossval import cross_validate
from workers.align.tuning.tune import (
    GRIDS,
    Objective,
    SettingResult,
    Stage,
    every_setting_on_all,
    expand_grid,
    named_grid,
    parse_stages,
    planned_evaluations,
    successive_halving,
)


@dataclass(frozen=True)
class Tuning:
    """The tuning procedure `tune` runs, so that cross-validation runs the same one."""

    settings: list[AlignmentParams]
    stages: tuple[Stage, ...] | None
    """None: every setting on every training document."""
    objective: Objective
    vectors: KeyedVectors | None

    def stages_for(self, train: Sequence[Meeting]) -> tuple[Stage, ...]:
        return self.stages or every_setting_on_all(len(train))

    def best(self, train: Sequence[Meeting], what: str = "tuning") -> SettingResult:
        stages = self.stages_for(train)
        total = planned_evaluations(stages, len(self.settings), len(train))
        with progress.bar(desc=what, unit="setting-document", total=total) as bar:
            ranked = successive_halving(
                train, self.settings, self.vectors, stages, progress=bar.update, kind=self.objective
            )
        return ranked[0]


def base_params(args: argparse.Namespace, meetings: Sequence[Meeting] | None) -> AlignmentParams:
    """What a grid varies: `--params`; else, for a gold not made only of public_meetings
    meetings, the defaults `align` gives new documents (and so their kind of word vectors);
    else the engine's defaults, from which the shipped corpus files were tuned."""
    if args.params:
        return load_params(args.params)
    if meetings is not None and not only_corpus_meetings(meetings):
        aligner = getattr(args, "aligner", None)
        return choose_params(None, aligner, brings_vectors=bool(args.vectors)).params
    return AlignmentParams()


def only_corpus_meetings(meetings: Sequence[Meeting]) -> bool:
    corpus = set(meeting_ids())
    return all(meeting.id in corpus for meeting in meetings)


def tuning_for(
    args: argparse.Namespace, vectors: KeyedVectors | None, base: AlignmentParams
) -> Tuning:
    """The tuning `args` ask for from `base`, its grid and stages checked (so call it before
    training word vectors, with None, and give it the vectors after)."""
    grid = named_grid(args.grid) if args.grid in GRIDS else _grid_file(Path(args.grid))
    try:
        settings = expand_grid(base, grid)
    except ValueError as error:
        raise DataError(f"--grid {args.grid}: {error}") from error
    try:
        stages = parse_stages(args.stages) if args.stages else None
    except ValueError as error:
        raise UsageError(f"--stages: {error}") from error
    others = sorted({s.aligner for s in settings if not isinstance(s.path, TurnSettings)})
    if args.learn and others:
        raise UsageError(
            "--learn learns from the turn path's evidence: tune a grid of the turns aligner "
            f'(as the default grid, or "aligner": ["turns"]), not {", ".join(others)}'
        )
    return Tuning(settings, stages, args.objective, vectors)


def gold_meetings(args: argparse.Namespace, wanted: str | None) -> list[Meeting]:
    """The gold's meetings, or those whose key starts with one of the comma-separated
    `wanted` prefixes."""
    try:
        meetings = read_gold(args.gold)
    except LayoutError as error:
        named = str(error) if error.where == str(args.gold) else f"{args.gold}: {error}"
        raise DataError(f"--gold {named}") from error
    if wanted:
        prefixes = wanted.split(",")
        meetings = [m for m in meetings if any(m.id.startswith(p) for p in prefixes)]
        if not meetings:
            raise UsageError(
                f"--gold {args.gold} has no document whose key starts with {wanted}; "
                "its keys: " + ", ".join(m.id for m in read_gold(args.gold))
            )
    return meetings


def require_folds(args: argparse.Namespace, meetings: Sequence[Meeting]) -> None:
    """`--cv K` needs at least K documents: said before any word vector is trained."""
    if not args.cv or args.cv <= len(meetings):
        return
    where = f"--gold {args.gold}" if args.gold else "the training meetings"
    fix = (
        f"give --cv between 2 and {len(meetings)}"
        if len(meetings) >= 2
        else "cross-validation needs 2 documents or more"
    )
    raise UsageError(
        f"--cv {args.cv}: {where} has {len(meetings)} document(s) with gold, too few for "
        f"{args.cv} folds (each fold holds out one document at least); {fix}"
    )


def _grid_file(path: Path) -> dict[str, Any]:
    try:
        grid = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise DataError(f"--grid {path}: not UTF-8 JSON ({error})") from error
    if not isinstance(grid, dict):
        raise DataError(f'--grid {path}: a grid is a JSON object {{"section.name": [values]}}')
    return grid


def gold_vectors(
    args: argparse.Namespace, texts: Sequence[Meeting], params: AlignmentParams
) -> KeyedVectors | None:
    """`--vectors`, else word2vec trained on every gold text (labels are not read)."""
    if args.vectors:
        return vectors_option(args.vectors)
    if params.aligner == "diagonal" or params.scoring.method != "embedding":
        return None
    with progress.epochs("training word vectors on the gold texts") as on_epoch:
        return corpus_vectors(texts, params.vectors, on_epoch)


def cross_validation(
    meetings: Sequence[Meeting], args: argparse.Namespace, tuning: Tuning
) -> tuple[list[tuple[Meeting, AlignmentResult]], dict[str, Any]]:
    """`tuning` (and with `--learn` the learned decision) cross-validated by document."""
    vectors = tuning.vectors

    def path_only(
        _: Sequence[Meeting], test: Sequence[Meeting], params: AlignmentParams
    ) -> tuple[dict[str, AlignmentResult], dict[str, Any]]:
        return {meeting.id: align_meeting(meeting, params, vectors) for meeting in test}, {}

    def learned(
        train: Sequence[Meeting], test: Sequence[Meeting], params: AlignmentParams
    ) -> tuple[dict[str, AlignmentResult], dict[str, Any]]:
        decision = fit_learned_decision(train, params, vectors)
        decided = {
            meeting.id: align_and_decide(meeting, params, vectors, decision) for meeting in test
        }
        return decided, {"learned": decision.summary()}

    decide = learned if args.learn else path_only
    with progress.bar(desc="cross-validation", unit="fold", total=args.cv) as fold_bar:

        def decide_fold(
            train: Sequence[Meeting], test: Sequence[Meeting], params: AlignmentParams
        ) -> tuple[dict[str, AlignmentResult], dict[str, Any]]:
            decided = decide(train, test, params)
            fold_bar.update()
            return decided

        pairs, folds = cross_validate(
            meetings,
            args.cv,
            args.seed,
            lambda train: tuning.best(train, f"tuning on {len(train)} documents"),
            decide_fold,
        )
    protocol = {
        "k": args.cv,
        "seed": args.seed,
        "learned_decision": args.learn,
        "folds": [fold.as_dict() for fold in folds],
    }
    return pairs, protocol


def evaluate_gold(
    args: argparse.Namespace,
) -> tuple[list[tuple[Meeting, AlignmentResult]], dict[str, Any]]:
    """Aligned gold meetings and how their parameters were chosen, for the report."""
    if args.method != "dp":
        raise UsageError("--method applies to public_meetings; give --gold a --params file")
    if args.cv and args.aligner:
        raise UsageError("--cv tunes with --grid; name the aligner in the grid, not --aligner")
    meetings = gold_meetings(args, args.meetings)
    require_folds(args, meetings)
    protocol: dict[str, Any] = {"gold": str(args.gold), "documents": len(meetings)}
    if args.cv:
        base = base_params(args, meetings)
        untrained = tuning_for(args, None, base)
        tuning = replace(untrained, vectors=gold_vectors(args, meetings, base))
        pairs, protocol["cross_validation"] = cross_validation(meetings, args, tuning)
        protocol["params"] = "tuned on the other folds"
        return pairs, protocol
    if args.params:
        fixed = with_aligner(load_params(args.params), args.aligner)
        params = {meeting.id: fixed for meeting in meetings}
        protocol["params"] = str(args.params)
    elif only_corpus_meetings(meetings):
        corpus = meeting_ids()
        params = {
            meeting.id: shipped_defaults(meeting.id, corpus, args.aligner) for meeting in meetings
        }
        protocol["params"] = (
            "the shipped defaults: each public_meetings meeting gets those tuned on the other fold"
        )
    else:
        chosen = choose_params(None, args.aligner, brings_vectors=bool(args.vectors))
        params = {meeting.id: chosen.params for meeting in meetings}
        protocol["params"] = f"{chosen.source}, as align gives new documents"
    print(f"parameters: {protocol['params']}", file=sys.stderr)
    vectors = gold_vectors(args, meetings, next(iter(params.values())))
    pairs = [
        (meeting, align_meeting(meeting, params[meeting.id], vectors))
        for meeting in progress.bar(meetings, desc="aligning", unit="document")
    ]
    return pairs, protocol
