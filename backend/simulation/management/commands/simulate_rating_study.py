"""`manage.py simulate_rating_study`: a rating study on public_meetings with simulated raters
(backend/simulation/rating.py), its pre-alignment on a real Celery worker: one already
running (scripts/worker), or with --start-worker one this command starts and stops."""

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from backend.core.errors import ServiceError
from backend.simulation.bootstrap import SimulationError
from backend.simulation.management.commands._worker import worker_for_the_run
from backend.simulation.rating import RatingSimulation


class Command(BaseCommand):
    help = "Rate a stratified sample of the shipped defaults' pairs with simulated raters."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--sample-size", type=int, default=100, help="Automatic pairs.")
        parser.add_argument("--controls", type=int, default=20, help="Gold pairs mixed in.")
        parser.add_argument("--raters", type=int, default=3)
        parser.add_argument("--raters-per-pair", type=int, default=2)
        parser.add_argument(
            "--gold-meetings", type=int, default=2, help="Fold-A meetings imported as gold."
        )
        parser.add_argument(
            "--automatic-meetings",
            type=int,
            default=11,
            help="Fold-B meetings pre-aligned with the shipped defaults (all 11 by default).",
        )
        parser.add_argument("--seed", type=int, default=0, help="Draws the study.")
        parser.add_argument("--json", type=Path, help="Also write the results to this file.")
        parser.add_argument(
            "--start-worker",
            action="store_true",
            help="Start a worker for the run when none answers (and stop it afterwards).",
        )
        parser.add_argument("--job-timeout", type=float, default=3600.0, help="Seconds per job.")

    def handle(self, *args: Any, **options: Any) -> None:
        simulation = RatingSimulation(
            sample_size=options["sample_size"],
            controls=options["controls"],
            raters=options["raters"],
            raters_per_pair=options["raters_per_pair"],
            gold_meetings=options["gold_meetings"],
            automatic_meetings=options["automatic_meetings"],
            seed=options["seed"],
            job_timeout=options["job_timeout"],
            say=lambda line: self.stdout.write(line),
        )
        with worker_for_the_run(self, start_worker=options["start_worker"]):
            try:
                results = simulation.run()
            except SimulationError as error:
                raise CommandError(str(error)) from error
            except ServiceError as error:
                raise CommandError(error.message) from error
        text = json.dumps(results, indent=2, ensure_ascii=False)
        self.stdout.write(text)
        if options["json"]:
            options["json"].write_text(text + "\n", encoding="utf-8")
