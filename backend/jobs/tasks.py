"""What every job-running task shares: retries with backoff for transient errors, and a job
that ends failed, with the error, when the task gives up on anything else. Each app's
``tasks`` module defines its tasks on `JobTask`; this app has none of its own.

A transient error the retries do not cure leaves the job to the liveness rule
(backend/jobs/liveness.py), which sends it again. While the database is unreachable nothing
can be noted on the job, so the message is all it has: the retries then never run out, and
Celery writes nothing to its result backend, the same database, around a job task's body
(`ignore_result`), since a write that fails there drops the message without calling
`on_failure`. The job's row is the task's record. Permanent errors (a bad file, an invalid
parameter set) never reach here: services fail their job with a clear message and return,
so the task does not retry what cannot succeed.
"""

from typing import Any, TypeAlias

from billiard.einfo import ExceptionInfo
from celery import Task
from celery.exceptions import Retry
from django.db import InterfaceError, close_old_connections
from django.db import OperationalError as DatabaseOperationalError
from kombu.exceptions import OperationalError as BrokerOperationalError

from backend.jobs.services import job_fail_unexpectedly, job_leave_for_resend, job_note_retry

TRANSIENT_ERRORS = (DatabaseOperationalError, InterfaceError, BrokerOperationalError)

TaskArgs: TypeAlias = tuple[Any, ...]
TaskKwargs: TypeAlias = dict[str, Any]


class JobTask(Task):
    """Its first argument is a Job id; subclasses for other arguments override `job_id_of`,
    which the worker's main process also calls to stamp the job while the task runs
    (backend/jobs/liveness.py)."""

    autoretry_for = TRANSIENT_ERRORS
    ignore_result = True
    retry_backoff = 2
    retry_backoff_max = 60
    retry_jitter = True
    max_retries = 5

    def job_id_of(self, args: TaskArgs) -> int | None:
        return args[0] if args else None

    def retry(self, *args: Any, **kwargs: Any) -> Retry:
        """The job goes back to `queued` before the retry's message is sent: a job still
        `running` with a fresh heartbeat reads as one a live worker runs, and `job_begin` would
        drop the retry as a second delivery, leaving the job to the liveness rule's re-send.
        A connection the error broke is replaced first. With the database still down nothing
        can be noted, so the retry is sent whatever the count: a job still `queued` has no
        other way back (one left `running` has the liveness rule too)."""
        close_old_connections()
        job_id = self.job_id_of(tuple(self.request.args or ()))
        error = kwargs.get("exc")
        if job_id is not None:
            try:
                job_note_retry(job_id=job_id, error=f"{type(error).__name__}: {error}")
            except TRANSIENT_ERRORS:
                close_old_connections()
                kwargs["max_retries"] = self.request.retries + 1
        try:
            return super().retry(*args, **kwargs)
        finally:
            # Celery keeps a per-call limit on the task object, shared by the process's next
            # requests, and forgets to drop it when the retry raises.
            self.__dict__.pop("override_max_retries", None)

    def on_failure(
        self, exc: Exception, task_id: str, args: TaskArgs, kwargs: TaskKwargs, einfo: ExceptionInfo
    ) -> None:
        """A transient error that reaches here (retries spent, or raised outside the task's
        body) leaves the job to be sent again; any other fails it."""
        close_old_connections()
        job_id = self.job_id_of(tuple(args))
        if job_id is None:
            return
        if isinstance(exc, TRANSIENT_ERRORS):
            job_leave_for_resend(job_id=job_id, error=exc)
        else:
            job_fail_unexpectedly(job_id=job_id, error=exc)
