"""The align, evaluate, tune and bench commands (their options are in `main`, which imports
this module when one of them runs). Progress bars go to stderr so that --json output on
stdout stays machine-readable."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from workers.align.cli import progress
from workers.align.cli.align_own_files import (
    command_align_own,
    diagnosed,
    wants_own_files,
    warning_rows,
    write_results,
)
from workers.align.cli.errors import UsageError, vectors_option
from workers.align.cli.gold_evaluation import (
    base_params,
    cross_validation,
    evaluate_gold,
    gold_meetings,
    gold_vectors,
    require_folds,
    tuning_for,
)
from workers.align.corpus import load_public_meetings, meeting_ids
from workers.align.document_model import Meeting
from workers.align.excerpts import excerpts
from workers.align.learning.statistics import auroc, expected_calibration_error, reliability
from workers.align.learning.turn_decision import (
    load_learned,
    store_learned,
    too_little_gold,
    weak_ranking,
)
from workers.align.metrics import merge_subturns, micro_average, score_meeting
from workers.align.params import AlignmentParams, load_params, save_params
from workers.align.pipeline import (
    AlignmentResult,
    align_and_decide,
    corpus_vectors,
    fit_learned_decision,
)
from workers.align.scoring.vectors import TrainingSettings

if TYPE_CHECKING:
    from gensim.models import KeyedVectors


def _meetings(args: argparse.Namespace) -> list[Meeting]:
    return corpus_meetings("--meetings", args.meetings)


def corpus_meetings(option: str, names: str | None) -> list[Meeting]:
    """The public_meetings meetings a comma-separated option names (all when None)."""
    try:
        return load_public_meetings(names.split(",") if names else None)
    except KeyError as error:
        raise UsageError(f"{option}: {error.args[0]}; give full ids or longer prefixes") from error


def _params_for(args: argparse.Namespace) -> dict[str, AlignmentParams]:
    from workers.align.folds import shipped_defaults, with_aligner

    corpus = meeting_ids()
    if args.params:
        fixed = with_aligner(load_params(args.params), args.aligner)
        return {meeting_id: fixed for meeting_id in corpus}
    return {meeting_id: shipped_defaults(meeting_id, corpus, args.aligner) for meeting_id in corpus}


def _vectors(args: argparse.Namespace, params: Sequence[AlignmentParams]) -> KeyedVectors | None:
    if args.vectors:
        return vectors_option(args.vectors)
    if not any(p.aligner != "diagonal" and p.scoring.method == "embedding" for p in params):
        return None
    settings = {p.vectors for p in params}
    if len(settings) != 1:
        raise UsageError("parameter sets disagree on word-vector training settings")
    return _corpus_vectors(settings.pop())


def _corpus_vectors(settings: TrainingSettings) -> KeyedVectors:
    with progress.epochs("training word vectors on the corpus texts") as on_epoch:
        return corpus_vectors(load_public_meetings(), settings, on_epoch)


def _segmentation_result(meeting: Meeting, method: str) -> AlignmentResult:
    """A linear-segmentation baseline; it has no notion of evidence, so confidence is 0."""
    from workers.align.baselines.c99 import c99_labels
    from workers.align.baselines.texttiling import texttiling_labels

    labels = texttiling_labels(meeting) if method == "texttiling" else c99_labels(meeting)
    return AlignmentResult(labels, np.zeros(len(labels)))


def _align_all(args: argparse.Namespace) -> list[tuple[Meeting, AlignmentResult]]:
    meetings = _meetings(args)
    if args.method in ("texttiling", "c99"):
        return [
            (meeting, _segmentation_result(meeting, args.method))
            for meeting in progress.bar(meetings, desc=args.method, unit="meeting")
        ]
    if args.method == "diagonal":
        diagonal = AlignmentParams.of("diagonal")
        params = {meeting.id: diagonal for meeting in meetings}
    else:
        params = _params_for(args)
    vectors = _vectors(args, [params[m.id] for m in meetings])
    learned = load_learned(args.params) if args.params and args.method == "dp" else None
    results = []
    for meeting in progress.bar(meetings, desc="aligning", unit="meeting"):
        results.append((meeting, align_and_decide(meeting, params[meeting.id], vectors, learned)))
    return results


def command_align(args: argparse.Namespace) -> int:
    if wants_own_files(args):
        return command_align_own(args)
    results = _align_all(args)
    findings = diagnosed(results, confidence=args.method == "dp")
    written = write_results(results, args, one_file=False, findings=findings)
    if args.json:
        print(json.dumps({"written": written, "warnings": warning_rows(findings)}))
    else:
        print(f"wrote {', '.join(written)}")
    return 0


def evaluation_report(pairs: list[tuple[Meeting, AlignmentResult]]) -> dict[str, Any]:
    per_meeting = {}
    right, confidence = [], []
    for meeting, result in pairs:
        if meeting.reference is None:
            continue
        merged = merge_subturns(
            [turn.id for turn in meeting.transcript.turns],
            meeting.reference,
            result.labels,
            [turn.word_count for turn in meeting.transcript.turns],
        )
        per_meeting[meeting.id] = score_meeting(*merged)
        right.append(np.asarray(result.labels) == np.asarray(meeting.reference))
        confidence.append(np.asarray(result.confidence, dtype=np.float64))
    return {
        "micro_average": micro_average(list(per_meeting.values())).as_dict(),
        "confidence": confidence_report(np.concatenate(confidence), np.concatenate(right))
        if right
        else None,
        "per_meeting": {
            meeting_id: micro_average([scores]).as_dict()
            for meeting_id, scores in per_meeting.items()
        },
    }


def confidence_report(confidence: np.ndarray, right: np.ndarray) -> dict[str, Any]:
    """How well each turn's confidence says that its label is right: as a ranking (AUROC)
    and as a probability (expected calibration error, and the bins it is drawn from)."""
    return {
        "turns": len(right),
        "auroc": _json_number(auroc(confidence, right)),
        "ece": expected_calibration_error(confidence, right),
        "reliability": reliability(confidence, right),
    }


def _json_number(value: float) -> float | None:
    return None if np.isnan(value) else value


def command_evaluate(args: argparse.Namespace) -> int:
    if args.learn and not (args.gold and args.cv):
        raise UsageError(
            "--learn evaluates the learned decision by cross-validation: give --gold and --cv "
            "(to evaluate a stored decision, give --params a file made by tune --learn)"
        )
    if args.gold:
        pairs, protocol = evaluate_gold(args)
        report = {**evaluation_report(pairs), "protocol": protocol}
    else:
        pairs = _align_all(args)
        report = evaluation_report(pairs)
    report["warnings"] = warning_rows(diagnosed(pairs, confidence=args.method == "dp"))
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{'meeting':34} {'turns':>6} {'seg %':>7} {'word %':>7} {'WD':>7} {'Pk':>7}")
    rows = [*report["per_meeting"].items(), ("micro-average", report["micro_average"])]
    for name, figures in rows:
        print(
            f"{name:34} {figures['turns']:>6} {figures['segment_accuracy']:7.2f} "
            f"{figures['word_accuracy']:7.2f} {_figure(figures['windowdiff'])} "
            f"{_figure(figures['pk'])}"
        )
    if any(figures["windowdiff"] is None for _, figures in rows):
        print(
            "n/a: WindowDiff and Pk are undefined where the reference segments average under "
            "about four turns (their window rounds to 0)"
        )
    cross_validation = report.get("protocol", {}).get("cross_validation", {})
    for number, fold in enumerate(cross_validation.get("folds", []), 1):
        if "learned" in fold:
            print(f"fold {number} ({len(fold['test'])} documents): {learned_line(fold['learned'])}")
    if report["confidence"] is not None:
        confidence = report["confidence"]
        auroc_text = "n/a" if confidence["auroc"] is None else f"{confidence['auroc']:.3f}"
        print(
            f"confidence that a turn's label is right: AUROC {auroc_text}, "
            f"expected calibration error {confidence['ece']:.3f} ({confidence['turns']} turns)"
        )
    return 0


def _figure(value: float | None) -> str:
    return f"{'n/a':>7}" if value is None else f"{value:7.2f}"


def learned_line(summary: dict[str, Any]) -> str:
    """A learned decision's summary in a line: were the corrections kept, and at what
    probability; which score the confidence calibrates."""
    corrections = (
        f"corrections kept, applied from probability {summary['threshold']:g}"
        if summary["corrections_kept"]
        else "corrections refused (none beat the path on held-out training gold)"
    )
    if summary["second_opinions_kept"]:
        score = "a model that also reads the other aligners' labels"
    elif summary["calibration_score"] == "logistic":
        score = "a model of the turn's evidence"
    else:
        score = "the engine's own confidence"
    return f"{corrections}; confidence calibrated from {score}"


def command_tune(args: argparse.Namespace) -> int:
    if args.excerpts and args.cv:
        raise UsageError("--excerpts and --cv do not go together yet: tune with one or the other")
    gold = gold_meetings(args, args.train) if args.gold else None
    base = base_params(args, gold)
    untrained = tuning_for(args, None, base)
    if gold is not None:
        train = gold
        require_folds(args, train)
        vectors = gold_vectors(args, gold_meetings(args, None), base)
        source = {"gold": str(args.gold)}
    else:
        if not args.train:
            raise UsageError("name the training meetings: --train H1,H2,.. (or tune on --gold)")
        train = corpus_meetings("--train", args.train)
        require_folds(args, train)
        vectors = vectors_option(args.vectors) if args.vectors else None
        if vectors is None:
            vectors = _corpus_vectors(base.vectors)
        source = {}
    meetings = list(train)
    if args.excerpts:
        train = [*train, *(part for meeting in train for part in excerpts(meeting, args.excerpts))]
    tuning = replace(untrained, vectors=vectors)
    started = time.perf_counter()
    best = tuning.best(train)
    elapsed = time.perf_counter() - started
    held_out = {}
    if args.cv:
        pairs, protocol = cross_validation(train, args, tuning)
        held_out = {"cross_validation": {**protocol, **evaluation_report(pairs)}}
    save_params(
        best.params,
        args.out,
        **source,
        tuned_on=[meeting.id for meeting in meetings],
        **({"excerpts_of": args.excerpts} if args.excerpts else {}),
        settings_tried=len(tuning.settings),
        grid=args.grid,
        stages=",".join(f"{stage.documents}:{stage.keep:g}" for stage in tuning.stages_for(train)),
        objective=args.objective,
        tuning_seconds=round(elapsed, 1),
        training_summary=best.summary.as_dict(),
        **held_out,
    )
    learned = (
        learn_if_the_gold_allows(args, meetings, train, best.params, vectors) if args.learn else {}
    )
    summary = {
        "out": args.out,
        "settings": len(tuning.settings),
        "seconds": round(elapsed, 1),
        "best": best.params.to_dict(),
        "training_summary": best.summary.as_dict(),
        **{name: value["micro_average"] for name, value in held_out.items()},
        **learned,
    }
    print(
        json.dumps(summary, indent=2) if args.json else f"best of {len(tuning.settings)}: {summary}"
    )
    return 0


def learn_if_the_gold_allows(
    args: argparse.Namespace,
    meetings: Sequence[Meeting],
    train: Sequence[Meeting],
    params: AlignmentParams,
    vectors: KeyedVectors | None,
) -> dict[str, Any]:
    """The learned decision fitted and stored beside the parameters, unless the gold is too
    small (counted in documents, not excerpts) or the fit's held-out ranking too weak: the
    same guard as a tuning run in the app, so that a file of a few documents does not carry
    a calibration that gives every turn the same confidence."""
    refusal = too_little_gold(len(meetings))
    if refusal is None:
        decision = fit_learned_decision(train, params, vectors)
        refusal = weak_ranking(decision)
        if refusal is None:
            store_learned(args.out, decision)
            return {"learned": decision.summary()}
    print(
        f"tune --learn: no learned decision stored in {args.out}: {refusal.reason} "
        "align will use the engine's own confidence.",
        file=sys.stderr,
    )
    return {"learned_refused": {"code": refusal.code, "reason": refusal.reason}}


def command_bench(args: argparse.Namespace) -> int:
    from workers.align.performance import run_benchmarks

    with progress.bar(desc="bench", unit="step") as bar:

        def on_step(name: str, done: int, total: int) -> None:
            bar.total = total
            bar.update(done - bar.n)
            bar.set_description(f"bench: {name}" if name else "bench")

        figures = run_benchmarks(
            naive_size=args.naive_size, tuning=not args.no_tuning, on_step=on_step
        )
    print(json.dumps(figures, indent=2 if not args.json else None))
    return 0
