"""Distributed tuning speed-up as JSON: one tuning run over public_meetings gold documents
with 1 worker process, then with more (concurrency 1 each), on the same gold.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tandem_bench \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/7 DJANGO_SECRET_KEY=bench \\
    .venv/bin/python -m bench.tuning_scaling [--repeat 3] [--workers 1,2,4] [--documents 200]

It migrates the database it is given and works in a fresh project there: the meetings are
imported through the services in the corpus's own form, with the corpus's final alignment as
each one's submitted annotation (gold); `--documents` beyond 22 adds copies of the meetings
in turn, so a run can stand for a project of hundreds of gold documents. Word vectors are
trained once, before any timing, so every run measures the grid search alone: the engine's
shipped grid, the paper's two rounds (all settings on 3 documents, the best tenth on all).
Wall time runs from `tuning_start` to the job's end, as a lead would see it. Best parameters
must be identical whatever the number of workers.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

import django

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backend.settings")
POLL_SECONDS = 0.2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1, help="runs per worker count")
    parser.add_argument("--workers", default="1,2", help="worker process counts to compare")
    parser.add_argument(
        "--documents",
        type=int,
        default=22,
        help="gold documents: the 22 meetings, then copies of them in turn",
    )
    args = parser.parse_args()
    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    project, lead, documents = _gold_project(args.documents)
    runs = []
    for _ in range(args.repeat):
        for count in [int(value) for value in args.workers.split(",")]:
            runs.append(_timed_run(count, project, lead, documents))
    print(json.dumps(_summary(runs, len(documents)), indent=2))


def _gold_project(count: int):
    from django.contrib.auth import get_user_model

    from backend.curation.public_meetings import public_meeting_gold_import
    from backend.projects.models import Membership, Project, Role
    from backend.vectors.services import vectors_for
    from workers.align.corpus import meeting_ids
    from workers.align.params import AlignmentParams

    lead = get_user_model().objects.create_user(f"bench-{uuid.uuid4().hex[:8]}", password=None)
    project = Project.objects.create(name=f"tuning bench {time.strftime('%Y-%m-%d %H:%M')}")
    Membership.objects.create(project=project, user=lead, role=Role.LEAD)
    meetings = meeting_ids()
    documents = [
        public_meeting_gold_import(
            actor=lead,
            project=project,
            meeting_id=meetings[index % len(meetings)],
            copy=index // len(meetings),
        )
        for index in range(count)
    ]
    vectors_for(project_id=project.pk, settings=AlignmentParams().vectors)
    return project, lead, documents


def _timed_run(workers: int, project, lead, documents) -> dict:
    from backend.jobs.models import Job
    from backend.tuning.models import TuningRun
    from backend.tuning.services import tuning_start

    processes = [_start_worker(index) for index in range(workers)]
    try:
        started = time.perf_counter()
        run = tuning_start(actor=lead, project=project, gold_documents=documents)
        while Job.objects.get(pk=run.job_id).status not in Job.FINISHED:
            time.sleep(POLL_SECONDS)
        seconds = time.perf_counter() - started
    finally:
        for process in processes:
            _stop_worker(process)
    run = TuningRun.objects.select_related("job", "best").get(pk=run.pk)
    if run.job.status != Job.Status.SUCCEEDED:
        raise SystemExit(f"tuning run {run.pk} ended {run.job.status}: {run.job.error}")
    best = run.best
    return {
        "workers": workers,
        "seconds": round(seconds, 2),
        "tuning_run": run.pk,
        "settings": run.settings_count,
        "slices": run.slices.count(),
        "best": {
            "params": best.params,
            "segment_accuracy": best.segment_accuracy,
            "word_accuracy": best.word_accuracy,
            "window_diff": best.window_diff,
            "objective": best.objective,
        },
    }


def _start_worker(index: int) -> subprocess.Popen:
    from backend.celery import app as celery_app

    name = f"bench-{index}-{uuid.uuid4().hex[:6]}@localhost"
    command = [
        sys.executable, "-m", "celery", "-A", "backend", "worker", "--loglevel", "WARNING",
        "--concurrency", "1", "--queues", "default,cpu", "--hostname", name,
        "--without-mingle", "--without-gossip",
    ]  # fmt: skip
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if celery_app.control.ping(destination=[name], timeout=1.0):
            return process
    raise SystemExit(f"worker {name} did not start")


def _stop_worker(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _summary(runs: list[dict], documents: int) -> dict:
    by_workers: dict[int, list[dict]] = {}
    for run in runs:
        by_workers.setdefault(run["workers"], []).append(run)
    medians = {
        count: statistics.median(run["seconds"] for run in group)
        for count, group in by_workers.items()
    }
    fewest, most = min(medians), max(medians)
    bests = {json.dumps(run["best"]["params"], sort_keys=True) for run in runs}
    return {
        "gold_documents": documents,
        "cpu_count": os.cpu_count(),
        "database": django.db.connection.vendor,
        "broker": os.environ.get("CELERY_BROKER_URL", "filesystem://").split("://")[0],
        "median_seconds_by_workers": {str(count): value for count, value in medians.items()},
        "speedup": round(medians[fewest] / medians[most], 2),
        "speedup_by_workers": {
            str(count): round(medians[fewest] / value, 2) for count, value in medians.items()
        },
        "same_best_params_every_run": len(bests) == 1,
        "runs": runs,
    }


if __name__ == "__main__":
    main()
