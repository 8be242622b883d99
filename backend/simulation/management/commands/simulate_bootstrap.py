"""`manage.py simulate_bootstrap`: the whole bootstrap loop on public_meetings, on a fresh
project, with simulated annotators. Jobs run on a real Celery worker: one already running
(scripts/worker), or with --start-worker one this command starts and stops."""

import argparse
import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from backend.curation.public_meetings import CORPUS_SOURCE, load_public_meetings
from backend.iterations.models import StartingParameters
from backend.simulation.bootstrap import Simulation, SimulationError
from backend.simulation.management.commands._worker import worker_for_the_run
from backend.simulation.review import AUTO, ReviewThreshold
from workers.align.annotation.selection import SelectionPolicy

CORPORA = (CORPUS_SOURCE,)
DEFAULT_OVERLOOK = 0.1
"""With double annotation, annotators who never err would always agree."""


class Command(BaseCommand):
    help = "Run the bootstrap loop on public_meetings with simulated annotators."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--corpus", choices=CORPORA, default=CORPUS_SOURCE)
        parser.add_argument(
            "--batches", default="4,6,6,6", help="Meetings per iteration, e.g. 4,6,6,6."
        )
        parser.add_argument("--seed", type=int, default=0, help="Shuffles the meetings.")
        parser.add_argument(
            "--meetings",
            help="Draw batches from these meeting ids (or unique prefixes), comma-separated; "
            "all 22 by default.",
        )
        parser.add_argument("--json", type=Path, help="Also write the figures to this file.")
        parser.add_argument(
            "--start-worker",
            action="store_true",
            help="Start a worker for the run when none answers (and stop it afterwards).",
        )
        parser.add_argument(
            "--no-final-tuning",
            action="store_true",
            help="Close the last iteration without tuning (nothing would use its result).",
        )
        parser.add_argument(
            "--double-annotation",
            type=float,
            default=0.0,
            metavar="SHARE",
            help="Share of each batch a second annotator corrects too (0 to 1); disagreements "
            "are adjudicated, and agreement is reported per iteration.",
        )
        parser.add_argument(
            "--overlook",
            type=float,
            metavar="P",
            help="Probability that an annotator leaves a wrong pre-aligned turn as it is, each "
            f"annotator independently; {DEFAULT_OVERLOOK} with --double-annotation, else 0.",
        )
        parser.add_argument(
            "--no-learned-decision",
            action="store_true",
            help="Tune without fitting the engine's learned decision (the project setting "
            "learned_decision off), to measure the loop with and without it.",
        )
        parser.add_argument(
            "--select",
            choices=[policy.value for policy in SelectionPolicy],
            default=SelectionPolicy.RANDOM.value,
            help="How batches after the first are chosen: the seed's order (random), the "
            "engine's uncertainty on the candidates pre-aligned with the parameters in use, or "
            "diversity from the gold so far; the first batch is the seed's under every policy.",
        )
        parser.add_argument(
            "--held-out",
            type=int,
            default=0,
            metavar="N",
            help="Draw N meetings (with the seed) that are never annotated, pre-align them with "
            "the parameters the loop ends with and report their accuracy.",
        )
        parser.add_argument(
            "--review-threshold",
            type=_review_threshold,
            metavar="P",
            help="Annotators review only the turns whose pre-alignment confidence is below P, "
            f"accepting the rest unread; '{AUTO}' takes per iteration the threshold the app "
            "would propose for a 2 %% residual error. By default they read and correct every "
            "turn.",
        )
        parser.add_argument(
            "--review-top-up",
            action="store_true",
            help="With --review-threshold: once the shown turns are read, annotators also read "
            "the turns a top-up adds where those proved wrong more often than their confidence "
            "said (an experiment the editor does not run; docs/review.md).",
        )
        parser.add_argument(
            "--review-shown-only",
            action="store_true",
            help="With --review-threshold: annotators read the shown turns only, not the turns "
            "next to each turn they change that the review mode also shows, and 'auto' plans "
            "for that (the review mode before it followed changes; docs/review.md).",
        )
        parser.add_argument(
            "--review-spot-check",
            type=float,
            default=0.0,
            metavar="SHARE",
            help="With --review-threshold: once a document is reviewed, its annotators read a "
            "random SHARE of the turns left unread (the spot check the editor's review mode "
            "draws; docs/review.md), and each iteration reports the residual error estimated "
            "with it.",
        )
        parser.add_argument(
            "--starting",
            choices=[choice.value for choice in StartingParameters],
            default=StartingParameters.DIAGONAL.value,
            help="What pre-aligns the batches until a tuning run's parameters are promoted: "
            "the diagonal, as in the paper's first iteration, or the shipped defaults a new "
            "project starts from.",
        )
        parser.add_argument("--job-timeout", type=float, default=3600.0, help="Seconds per job.")

    def handle(self, *args: Any, **options: Any) -> None:
        sizes = _sizes(options["batches"])
        share = options["double_annotation"]
        overlook = options["overlook"]
        if overlook is None:
            overlook = DEFAULT_OVERLOOK if share else 0.0
        for flag in ("review_top_up", "review_shown_only"):
            if options[flag] and options["review_threshold"] is None:
                name = "--" + flag.replace("_", "-")
                raise CommandError(f"{name} needs --review-threshold")
        spot_check = options["review_spot_check"]
        if spot_check and options["review_threshold"] is None:
            raise CommandError("--review-spot-check needs --review-threshold")
        if not 0.0 <= spot_check <= 1.0:
            raise CommandError(f"--review-spot-check must be between 0 and 1, got {spot_check}")
        if options["held_out"] < 0:
            raise CommandError(f"--held-out must be 0 or more, got {options['held_out']}")
        for name, value in (("--double-annotation", share), ("--overlook", overlook)):
            if not 0.0 <= value <= 1.0:
                raise CommandError(f"{name} must be between 0 and 1, got {value}")
        with worker_for_the_run(self, start_worker=options["start_worker"]):
            try:
                simulation = Simulation(
                    sizes=sizes,
                    seed=options["seed"],
                    job_timeout=options["job_timeout"],
                    final_tuning=not options["no_final_tuning"],
                    pool=_pool(options["meetings"]),
                    double_share=share,
                    overlook=overlook,
                    learned_decision=not options["no_learned_decision"],
                    select=SelectionPolicy(options["select"]),
                    held_out=options["held_out"],
                    review_threshold=options["review_threshold"],
                    review_top_up=options["review_top_up"],
                    review_follow_changes=not options["review_shown_only"],
                    review_spot_check=spot_check,
                    starting=StartingParameters(options["starting"]),
                    say=lambda line: self.stdout.write(line),
                )
                outcomes = simulation.run()
            except SimulationError as error:
                raise CommandError(str(error)) from error
        report = {
            "corpus": options["corpus"],
            "seed": options["seed"],
            "batches": sizes,
            "double_annotation": share,
            "overlook": overlook,
            "learned_decision": simulation.learned_decision,
            "select": simulation.select.value,
            "held_out": simulation.held_out_figures,
            "review_threshold": options["review_threshold"],
            "review_top_up": options["review_top_up"],
            "review_follow_changes": simulation.review_follow_changes,
            "review_spot_check": spot_check,
            "starting": options["starting"],
            "project": simulation.project.pk,
            "iterations": [outcome.as_dict() for outcome in outcomes],
        }
        text = json.dumps(report, indent=2, ensure_ascii=False)
        self.stdout.write(text)
        if options["json"]:
            options["json"].write_text(text + "\n", encoding="utf-8")


def _review_threshold(text: str) -> ReviewThreshold:
    if text == AUTO:
        return AUTO
    try:
        threshold: float | None = float(text)
    except ValueError:
        threshold = None
    if threshold is None or not 0.0 <= threshold <= 1.0:
        raise argparse.ArgumentTypeError(f"a probability between 0 and 1, or {AUTO}; got {text!r}")
    return threshold


def _pool(text: str | None) -> list[str] | None:
    if not text:
        return None
    try:
        return [meeting.id for meeting in load_public_meetings(text.split(","))]
    except KeyError as error:
        raise CommandError(f"--meetings: {error.args[0]}") from error


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(part) for part in text.split(",")]
    except ValueError as error:
        raise CommandError(f"--batches must be sizes like 4,6,6,6, got {text!r}") from error
    if not sizes or any(size < 1 for size in sizes):
        raise CommandError(f"--batches needs positive sizes, got {text!r}")
    return sizes
