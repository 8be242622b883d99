"""No job stays `running` forever, whichever broker carries its messages, and none runs twice
at once.

Every worker's main process (not the pool processes that run tasks, whose long computations
can hold their interpreter) ticks every TANDEM_JOB_HEARTBEAT_SECONDS on the worker's timer:

- it stamps the `heartbeat_at` and `worker` of every job one of its tasks is working on (its
  active requests, each mapped to its job by the task's `job_id_of`);
- it looks for running jobs nobody has stamped for TANDEM_JOB_LOST_AFTER_SECONDS, and sends
  each again or fails it with the reason (`jobs_recover_lost`).

A worker killed with its tasks stops stamping, so its jobs are sent again within about
HEARTBEAT + LOST_AFTER + HEARTBEAT seconds (50 s by default), on any broker. A running job
whose task waits for a retry, or was stopped beyond its retries (`job_leave_for_resend`),
stops being stamped too, and comes back the same way once the database does. A queued job
has only its message: while the database is unreachable its task retries without end
(backend/jobs/tasks.py), so the message outlives the outage.

The database being unreachable stops every worker's stamps at once, so a worker sends jobs
again only once it has reached the database for two heartbeats in a row: by then every live
worker has stamped its jobs again, and a job silent through an outage is not taken for lost
while its worker still runs it. `job_begin` refuses a second delivery of a job that a live
worker is running, and a job sent again gets a new task id, so the message it replaces is
ignored if it ever comes back, and a task that kept running meanwhile may no longer write
(`job_lock_if_running`). With SQLite a connection opened before an outage can outlive it,
so each tick reaches the database on a new one (`reach_database`).
"""

import logging
import time
from typing import Any

from celery import bootsteps
from celery.worker import state as worker_state
from django.conf import settings
from django.db import close_old_connections, connection

logger = logging.getLogger(__name__)


class DatabaseWatch:
    """Since when this process has reached the database without a failure (monotonic
    seconds), or None while it cannot."""

    def __init__(self) -> None:
        self.reachable_since: float | None = None

    def succeeded(self) -> None:
        if self.reachable_since is None:
            self.reachable_since = time.monotonic()

    def failed(self) -> None:
        self.reachable_since = None
        close_old_connections()

    def settled(self) -> bool:
        """Reached long enough for every live worker to have stamped its jobs since."""
        return (
            self.reachable_since is not None
            and time.monotonic() - self.reachable_since >= 2 * settings.TANDEM_JOB_HEARTBEAT_SECONDS
        )


def active_job_ids() -> set[int]:
    """The jobs this worker's tasks are working on now, read in the worker's main process."""
    job_ids = set()
    for request in list(worker_state.active_requests):
        job_id_of = getattr(request.task, "job_id_of", None)
        if job_id_of is None:
            continue
        job_id = job_id_of(tuple(request.args))
        if job_id is not None:
            job_ids.add(job_id)
    return job_ids


def reach_database() -> None:
    """One round trip, so that even an idle worker notices an outage (and its end). A SQLite
    connection holds its file open, and one opened before the file's folder went away keeps
    working through the outage: on a connection opened now, every worker sees an outage
    alike, and none takes for lost a job whose worker cannot stamp it."""
    if connection.vendor == "sqlite":
        connection.close()
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


def tick(watch: DatabaseWatch, worker: str) -> None:
    """Stamp this worker's jobs, then recover lost ones once the database has settled."""
    from backend.jobs.services import jobs_heartbeat, jobs_recover_lost

    try:
        reach_database()
        jobs_heartbeat(job_ids=active_job_ids(), worker=worker)
        watch.succeeded()
        touched = jobs_recover_lost() if watch.settled() else []
    except Exception:
        logger.warning("Job heartbeat or lost-job scan failed", exc_info=True)
        watch.failed()
        return
    if touched:
        logger.warning("Lost jobs sent again or failed: %s", touched)


class JobLiveness(bootsteps.StartStopStep):
    """A worker step: `tick` every TANDEM_JOB_HEARTBEAT_SECONDS on the worker's own timer,
    in its main process."""

    requires = ("celery.worker.components:Timer",)

    def __init__(self, worker: Any, **kwargs: Any) -> None:
        super().__init__(worker, **kwargs)
        self.timer_entry = None
        self.watch = DatabaseWatch()

    def start(self, worker: Any) -> None:
        tick(self.watch, worker.hostname)
        self.timer_entry = worker.timer.call_repeatedly(
            max(1.0, settings.TANDEM_JOB_HEARTBEAT_SECONDS), tick, (self.watch, worker.hostname)
        )

    def stop(self, worker: Any) -> None:
        if self.timer_entry is not None:
            self.timer_entry.cancel()
