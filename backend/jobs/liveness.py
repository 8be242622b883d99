"""No job stays `running` forever, whichever broker carries its messages.

A task working on a job beats: a thread beside it stamps the job's `heartbeat_at` every
TANDEM_JOB_HEARTBEAT_SECONDS while it runs. Every worker, when it starts and then on its own
timer, looks for running jobs that nobody has stamped for TANDEM_JOB_LOST_AFTER_SECONDS and
sends them again, or fails them with the reason (`jobs_recover_lost`). With Redis a killed
worker's message would come back after the visibility timeout anyway; the filesystem broker of
the embedded default loses it, and this is what brings the job back. Tasks are idempotent and
resume, so a job sent again while its message was merely waiting costs work, not correctness.
"""

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from celery import bootsteps
from django.conf import settings
from django.db import close_old_connections, connection

logger = logging.getLogger(__name__)


@contextmanager
def beating(job_id: int | None) -> Iterator[None]:
    """Stamp the job's heartbeat now and then every TANDEM_JOB_HEARTBEAT_SECONDS until the
    block ends."""
    if job_id is None:
        yield
        return
    stop = threading.Event()
    thread = threading.Thread(
        target=_beat, args=(job_id, stop), name=f"job-{job_id}-heartbeat", daemon=True
    )
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def _beat(job_id: int, stop: threading.Event) -> None:
    from backend.jobs.services import job_heartbeat

    try:
        while True:
            try:
                job_heartbeat(job_id=job_id)
            except Exception:
                logger.warning("Job %s: heartbeat not recorded", job_id, exc_info=True)
                close_old_connections()
            if stop.wait(settings.TANDEM_JOB_HEARTBEAT_SECONDS):
                return
    finally:
        connection.close()


def recover_lost_jobs() -> None:
    from backend.jobs.services import jobs_recover_lost

    try:
        touched = jobs_recover_lost()
    except Exception:
        logger.warning("Looking for lost jobs failed", exc_info=True)
        close_old_connections()
        return
    if touched:
        logger.warning("Lost jobs sent again or failed: %s", touched)


class LostJobRecovery(bootsteps.StartStopStep):
    """A worker step: recover lost jobs when the worker starts, then every half
    TANDEM_JOB_LOST_AFTER_SECONDS on the worker's own timer."""

    requires = ("celery.worker.components:Timer",)

    def __init__(self, worker, **kwargs) -> None:
        super().__init__(worker, **kwargs)
        self.timer_entry = None

    def start(self, worker) -> None:
        recover_lost_jobs()
        interval = max(1.0, settings.TANDEM_JOB_LOST_AFTER_SECONDS / 2)
        self.timer_entry = worker.timer.call_repeatedly(interval, recover_lost_jobs)

    def stop(self, worker) -> None:
        if self.timer_entry is not None:
            self.timer_entry.cancel()
