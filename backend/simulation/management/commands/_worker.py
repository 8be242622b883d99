"""The worker a simulation command runs its jobs on (a module Django does not take for a
command: its name starts with an underscore)."""

import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from backend.core.local_worker import start_local_worker, workers_answering


@contextmanager
def worker_for_the_run(command: BaseCommand, *, start_worker: bool) -> Iterator[None]:
    """A worker that answers on the same database and broker, or, with `--start-worker`, one
    started for the run and stopped when it ends, however it ends: SIGTERM becomes an exit,
    so that the worker is stopped then too."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    worker = None
    if not workers_answering():
        if not start_worker:
            raise CommandError(
                "No Celery worker answers: start one (scripts/worker) on the same database "
                "and broker, or pass --start-worker."
            )
        worker = start_local_worker(Path(settings.DATA_DIR) / "logs")
        command.stdout.write(f"started worker {worker.name} (log: {worker.log_path})")
    try:
        yield
    finally:
        if worker is not None:
            worker.stop()
