"""Job life cycle: the web tier creates and enqueues, workers start, report and finish."""

import logging
import uuid
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from kombu.exceptions import OperationalError

from backend.audit.services import record_event
from backend.celery import app as celery_app
from backend.core.errors import Conflict, ServiceUnavailable
from backend.jobs.models import Job
from backend.projects.models import Project

logger = logging.getLogger(__name__)

# Fail fast when the broker is down: the user is waiting for the answer.
ENQUEUE_RETRY_POLICY: dict[str, Any] = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2}


def job_create(
    *,
    kind: str,
    project: Project | None = None,
    document: Any = None,  # a backend.documents Document: that app sits above this one
    created_by: User | None = None,
    arguments: dict[str, Any] | None = None,
) -> Job:
    return Job.objects.create(
        kind=kind,
        project=project,
        document=document,
        created_by=created_by,
        arguments=arguments or {},
    )


def _enqueue(*, job: Job, task_name: str, queue: str | None = None) -> None:
    """Send the task once the job row is committed, so a fast worker always finds it.

    Tasks are named, not imported, so the web tier does not import worker modules; the queue
    comes from CELERY_TASK_ROUTES unless `queue` names one. A fresh connection per job (rare)
    means a broker that went away is noticed, not hidden by a pooled connection."""
    options: dict[str, Any] = {"queue": queue} if queue else {}
    if job.task_name != task_name:
        job.task_name = task_name
        Job.objects.filter(pk=job.pk).update(task_name=task_name)
    try:
        with celery_app.connection_for_write() as connection:
            celery_app.send_task(
                task_name,
                args=[job.pk],
                task_id=str(job.celery_task_id),
                connection=connection,
                retry=True,
                retry_policy=ENQUEUE_RETRY_POLICY,
                **options,
            )
    except (OperationalError, OSError) as error:
        logger.warning("Cannot enqueue job %s: %s", job.pk, error)
        raise ServiceUnavailable(
            f"The task queue is unreachable, so nothing was done ({job.get_kind_display()} "
            "did not start); try again in a minute or ask an administrator to check the "
            "broker.",
        ) from error


def job_submit(
    *, job: Job, task_name: str, undo: Callable[[], object] | None = None, queue: str | None = None
) -> Job:
    """Enqueue a committed job, or answer 503: the job stays behind as a failed record and
    `undo` removes whatever was written for it, so a down broker leaves nothing half-done.
    Every service that starts background work (uploads included) goes through here."""
    try:
        _enqueue(job=job, task_name=task_name, queue=queue)
    except ServiceUnavailable as error:
        job_fail(job_id=job.pk, error=error.message)
        if undo is not None:
            undo()
        raise
    return job


@transaction.atomic
def job_begin(*, job_id: int, task_id: str | None = None) -> Job | None:
    """None when there is nothing to do: the job is gone, cancelled or already finished (a
    redelivered message), or a live worker runs it. A job left `running` by a dead worker is
    run again.

    `task_id`, the message's id, must be the one the job was last enqueued with: a message
    that outlived its job (a database reset or restored while the queue kept it, and the id
    reused), or one that a lost job's new message replaced (backend/jobs/liveness.py), would
    otherwise run against a job another task runs. A message delivered a second time while
    the job's worker still stamps it (Redis's visibility timeout passing on a long task) is
    dropped for the same reason: never two tasks on one job at once."""
    job = Job.objects.select_for_update().filter(pk=job_id).first()
    if job is None or job.status in Job.FINISHED:
        return None
    if task_id is not None and str(job.celery_task_id) != task_id:
        logger.warning("Ignoring task %s: job %s was enqueued as another task", task_id, job_id)
        return None
    if task_id is not None and _is_alive(job):
        logger.warning("Ignoring task %s: job %s is running on a live worker", task_id, job_id)
        return None
    job.status = Job.Status.RUNNING
    job.started_at = job.started_at or timezone.now()
    job.heartbeat_at = timezone.now()
    job.save(update_fields=["status", "started_at", "heartbeat_at"])
    return job


def _is_alive(job: Job) -> bool:
    """Running and stamped by its worker within TANDEM_JOB_LOST_AFTER_SECONDS."""
    lost_before = timezone.now() - timedelta(seconds=settings.TANDEM_JOB_LOST_AFTER_SECONDS)
    return (
        job.status == Job.Status.RUNNING
        and job.heartbeat_at is not None
        and job.heartbeat_at >= lost_before
    )


def jobs_heartbeat(*, job_ids: Iterable[int], worker: str) -> None:
    """A sign of life from the worker whose tasks work on these jobs (backend/jobs/liveness.py),
    which also tells an administrator where each runs; one statement, whatever their number."""
    job_ids = list(job_ids)
    if job_ids:
        Job.objects.filter(pk__in=job_ids).exclude(status__in=Job.FINISHED).update(
            heartbeat_at=timezone.now(), worker=worker
        )


def jobs_recover_lost(*, now: datetime | None = None) -> list[int]:
    """Running jobs whose workers are gone, told by a heartbeat older than
    TANDEM_JOB_LOST_AFTER_SECONDS: each is sent again under a new task id, queued (its tasks
    are idempotent and resume), or, once sent TANDEM_JOB_MAX_REQUEUES times already or never
    enqueued by name, failed with the reason. The ids of the jobs it touched. Safe to run from
    several workers at once: each job is decided under its row lock."""
    now = now or timezone.now()
    lost_before = now - timedelta(seconds=settings.TANDEM_JOB_LOST_AFTER_SECONDS)
    silent = Q(heartbeat_at__lt=lost_before) | Q(
        heartbeat_at__isnull=True, started_at__lt=lost_before
    )
    touched = []
    for job_id in Job.objects.filter(silent, status=Job.Status.RUNNING).values_list(
        "pk", flat=True
    ):
        with transaction.atomic():
            job = Job.objects.select_for_update().filter(silent, pk=job_id).first()
            if job is None or job.status != Job.Status.RUNNING:
                continue
            touched.append(job.pk)
            last = job.heartbeat_at or job.started_at
            silence = f"no sign of life from its worker since {last:%Y-%m-%d %H:%M:%S} UTC"
            if job.requeues >= settings.TANDEM_JOB_MAX_REQUEUES or not job.task_name:
                job_fail(
                    job_id=job.pk,
                    error=f"The job was lost: {silence}, and it was already started again "
                    f"{job.requeues} time{'s' if job.requeues != 1 else ''}.",
                )
                continue
            lost = {"task_id": str(job.celery_task_id), "heartbeat_at": job.heartbeat_at}
            job.requeues += 1
            job.status = Job.Status.QUEUED
            job.celery_task_id = str(uuid.uuid4())
            job.message = f"sent again: {silence}"[:200]
            job.save(update_fields=["requeues", "status", "celery_task_id", "message"])
            logger.warning("Job %s: %s; sending %s again", job.pk, silence, job.task_name)
            transaction.on_commit(partial(_send_again, job, lost))
    return touched


def _send_again(job: Job, lost: dict[str, Any]) -> None:
    """Send the lost job's new message; if the broker is unreachable, put the job back as it
    was found (running, silent, under its old task id), for the next scan to try again."""
    try:
        _enqueue(job=job, task_name=job.task_name)
    except ServiceUnavailable:
        logger.warning("Job %s could not be sent again: the broker is unreachable", job.pk)
        Job.objects.filter(
            pk=job.pk, status=Job.Status.QUEUED, celery_task_id=job.celery_task_id
        ).update(
            status=Job.Status.RUNNING,
            celery_task_id=lost["task_id"],
            heartbeat_at=lost["heartbeat_at"],
            requeues=F("requeues") - 1,
        )


def job_report_progress(*, job_id: int, progress: float, message: str = "") -> None:
    Job.objects.filter(pk=job_id, status=Job.Status.RUNNING).update(
        progress=max(0.0, min(1.0, progress)), message=message[:200]
    )


def job_note_retry(*, job_id: int, error: str) -> None:
    """Queued again, not running: the retry's own message is then taken, not dropped as a
    second delivery of a job a live worker runs (`job_begin`)."""
    Job.objects.filter(pk=job_id).exclude(status__in=Job.FINISHED).update(
        status=Job.Status.QUEUED,
        retries=F("retries") + 1,
        message=f"retrying after a transient error: {error}"[:200],
    )


def job_lock_if_running(*, job_id: int, task_id: str | None = None) -> Job | None:
    """Inside the caller's transaction: the job, locked, unless it was cancelled meanwhile or,
    for the task `task_id`, sent again under another id (backend/jobs/liveness.py): a task
    that kept running while its worker could not stamp it must not write beside the task
    that replaced it."""
    running = Job.objects.select_for_update().filter(pk=job_id, status=Job.Status.RUNNING)
    if task_id is not None:
        running = running.filter(celery_task_id=task_id)
    return running.first()


def job_succeed(*, job: Job, result: dict[str, Any], message: str = "done") -> Job:
    job.status = Job.Status.SUCCEEDED
    job.progress = 1.0
    job.message = message
    job.result = result
    job.finished_at = timezone.now()
    job.save(update_fields=["status", "progress", "message", "result", "finished_at"])
    return job


@transaction.atomic
def job_fail(*, job_id: int, error: str) -> None:
    Job.objects.filter(pk=job_id).exclude(status__in=Job.FINISHED).update(
        status=Job.Status.FAILED, error=error, message="failed", finished_at=timezone.now()
    )


def unexpected_failure(*, job_id: int, error: BaseException) -> str:
    """Logs the error for the administrators and returns what the job's users read: nothing
    of the exception, whose text can quote file contents, hosts or paths."""
    logger.error("Job %s failed: %s: %s", job_id, type(error).__name__, error, exc_info=error)
    return (
        "An unexpected error stopped the job; the administrators find it in the worker's log "
        f"under job {job_id}."
    )


def job_fail_unexpectedly(*, job_id: int, error: BaseException) -> None:
    job_fail(job_id=job_id, error=unexpected_failure(job_id=job_id, error=error))


def job_leave_for_resend(*, job_id: int, error: BaseException) -> None:
    """For a task stopped by an unreachable database or broker where its own retries cannot
    help: its retries ran out within the outage (their countdowns are jittered, so five can
    pass in seconds), or the failure came outside its body (Celery records a task's start in
    the result backend, the same database). The outage is nobody's fault and passes, so the
    job is not failed: it stays unfinished, `running` and unstamped from now, and the liveness
    rule (backend/jobs/liveness.py) sends it again once it has been silent
    TANDEM_JOB_LOST_AFTER_SECONDS, or fails it with the reason after
    TANDEM_JOB_MAX_REQUEUES sends."""
    logger.warning(
        "Job %s interrupted by %s: %s; left for the liveness rule to send again",
        job_id,
        type(error).__name__,
        error,
    )
    Job.objects.filter(pk=job_id).exclude(status__in=Job.FINISHED).update(
        status=Job.Status.RUNNING,
        heartbeat_at=timezone.now(),
        message=f"interrupted ({type(error).__name__}); to be sent again"[:200],
    )


@transaction.atomic
def job_cancel(*, actor: User, job: Job) -> Job:
    job = Job.objects.select_for_update().get(pk=job.pk)
    if job.status in Job.FINISHED:
        raise Conflict(f"Job {job.pk} already {job.status}; there is nothing to cancel.")
    job.status = Job.Status.CANCELLED
    job.message = "cancelled"
    job.finished_at = timezone.now()
    job.save(update_fields=["status", "message", "finished_at"])
    record_event(actor=actor, action="job.cancel", target=job, project=job.project)
    transaction.on_commit(lambda: _revoke(job.celery_task_id))
    return job


def _revoke(task_id: str) -> None:
    """Best effort: tasks also check the job's status, so a lost revoke only wastes work. The
    cancel answers after it, so an unreachable broker is tried once, as for an enqueue, not
    for the seconds Celery's own retries take."""
    try:
        with celery_app.connection_for_write() as connection:
            connection.ensure_connection(**ENQUEUE_RETRY_POLICY)
            celery_app.control.revoke(str(task_id), connection=connection)
    except Exception as error:  # noqa: BLE001 - the broker being down must not fail a cancel
        logger.warning("Cannot revoke task %s: %s", task_id, error)
