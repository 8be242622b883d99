"""The liveness rule without a worker: which running jobs count as lost, what happens to them,
the stamps a worker records, and that no job runs twice at once. The end-to-end case, a whole
worker killed with -9 on the suite's stack, is in tests/tasks/test_faults.py."""

from datetime import timedelta

import pytest
from celery.app.routes import prepare as prepare_routes
from celery.exceptions import Retry
from django.conf import settings
from django.db import OperationalError as DatabaseOperationalError
from django.db import connection, transaction
from django.test import override_settings
from django.utils import timezone

from backend.alignments.tasks import pre_align
from backend.celery import app as celery_app
from backend.core.database_outage import DATABASE_ERRORS
from backend.jobs.liveness import DatabaseWatch, tick
from backend.jobs.models import Job
from backend.jobs.services import (
    job_begin,
    job_lock_if_running,
    jobs_heartbeat,
    jobs_recover_lost,
)
from backend.jobs.tasks import JobTask
from tests.core.test_database_outage import database_unreachable

LOST_AFTER = timedelta(seconds=settings.TANDEM_JOB_LOST_AFTER_SECONDS)
UNKNOWN_TASK = "x.y"
RETRIED_TASK = "tests.jobs.retried"
SENT_AGAIN_QUEUE = "liveness-tests"
WORKER = "cpu-1@host"


@pytest.fixture
def sent_again(monkeypatch):
    """The messages a test's jobs are sent again with, read back from the broker.

    Their task, UNKNOWN_TASK, goes to a queue of its own that no worker consumes: a session
    worker that runs in this process (tests/conftest.py) would otherwise take the message,
    find no such task, and log it as an error. The test reads each message back, so none is
    left for a worker started later."""
    router = celery_app.amqp.router
    own_queue = prepare_routes(
        {name: {"queue": SENT_AGAIN_QUEUE} for name in (UNKNOWN_TASK, RETRIED_TASK)}
    )
    monkeypatch.setattr(router, "routes", [*own_queue, *router.routes])

    def read() -> list[tuple[str, str]]:
        messages = []
        with celery_app.connection_for_read() as connection:
            while (message := connection.default_channel.basic_get(SENT_AGAIN_QUEUE)) is not None:
                message.ack()
                messages.append((message.headers["task"], message.headers["id"]))
        return messages

    yield read
    read()


@celery_app.task(bind=True, base=JobTask, name=RETRIED_TASK)
def retried(self: JobTask, job_id: int) -> None:
    """Never run: the tests below call its `retry` as its body would."""


def running_job(*, silent_for: timedelta, requeues: int = 0, task_name: str = UNKNOWN_TASK) -> Job:
    beat = timezone.now() - silent_for
    return Job.objects.create(
        kind=Job.Kind.PRE_ALIGN,
        status=Job.Status.RUNNING,
        started_at=beat,
        heartbeat_at=beat,
        task_name=task_name,
        requeues=requeues,
    )


@pytest.mark.django_db
def test_a_silent_running_job_is_sent_again_under_a_new_task_id(
    sent_again, django_capture_on_commit_callbacks
):
    """In the test's transaction, never committed: a session worker on the same database
    (tests/conftest.py) neither takes this job for lost itself nor counts it, left running
    by the test's last `job_begin`, as a job it still has to finish."""
    job = running_job(silent_for=LOST_AFTER + timedelta(seconds=5))
    lost_task_id = str(job.celery_task_id)

    with django_capture_on_commit_callbacks(execute=True):
        assert jobs_recover_lost() == [job.pk]

    job.refresh_from_db()
    assert sent_again() == [(UNKNOWN_TASK, str(job.celery_task_id))]
    assert job.status == Job.Status.QUEUED
    assert job.requeues == 1
    assert job.message.startswith("sent again: no sign of life from its worker since ")
    assert str(job.celery_task_id) != lost_task_id
    assert jobs_recover_lost() == [], "a queued job waits for a worker, however long"
    assert job_begin(job_id=job.pk, task_id=lost_task_id) is None, "its old message is ignored"
    assert job_begin(job_id=job.pk, task_id=str(job.celery_task_id)) is not None


@pytest.mark.django_db
def test_a_job_the_broker_cannot_take_again_is_left_for_the_next_scan(
    monkeypatch, django_capture_on_commit_callbacks
):
    """Uncommitted, like the test above: the job it leaves running and silent is no session
    worker's business."""
    unreachable = "redis://127.0.0.1:9/0"
    # Celery reads CELERY_BROKER_URL before its own setting (CI sets it to the real Redis).
    monkeypatch.setenv("CELERY_BROKER_URL", unreachable)
    monkeypatch.setitem(celery_app.conf, "broker_url", unreachable)
    job = running_job(silent_for=LOST_AFTER + timedelta(seconds=5))
    before = Job.objects.get(pk=job.pk)

    with django_capture_on_commit_callbacks(execute=True):
        assert jobs_recover_lost() == [job.pk]

    after = Job.objects.get(pk=job.pk)
    assert (after.status, after.requeues, after.celery_task_id, after.heartbeat_at) == (
        Job.Status.RUNNING,
        0,
        before.celery_task_id,
        before.heartbeat_at,
    )


@pytest.mark.django_db
def test_a_second_delivery_of_a_job_a_live_worker_runs_is_dropped():
    """Redis delivers a long task's message again once its visibility timeout passes; the
    first delivery is still stamped by its worker, so the second must not run beside it."""
    alive = running_job(silent_for=timedelta(seconds=1))
    dead = running_job(silent_for=LOST_AFTER + timedelta(seconds=1))

    assert job_begin(job_id=alive.pk, task_id=str(alive.celery_task_id)) is None
    assert job_begin(job_id=dead.pk, task_id=str(dead.celery_task_id)) is not None
    assert job_begin(job_id=alive.pk) is not None, "a direct call (no message) is explicit"


@pytest.mark.django_db
def test_a_job_lost_again_after_its_last_chance_fails_with_the_reason():
    job = running_job(silent_for=LOST_AFTER * 2, requeues=settings.TANDEM_JOB_MAX_REQUEUES)

    jobs_recover_lost()

    job.refresh_from_db()
    assert job.status == Job.Status.FAILED
    assert job.error.startswith("The job was lost: no sign of life from its worker since ")
    assert f"started again {settings.TANDEM_JOB_MAX_REQUEUES} times" in job.error


@pytest.mark.django_db
def test_live_queued_and_finished_jobs_are_left_alone():
    alive = running_job(silent_for=LOST_AFTER - timedelta(seconds=30))
    old = timezone.now() - LOST_AFTER * 3
    queued = Job.objects.create(kind=Job.Kind.TUNE, heartbeat_at=old)
    done = Job.objects.create(kind=Job.Kind.TUNE, status=Job.Status.SUCCEEDED, heartbeat_at=old)

    assert jobs_recover_lost() == []

    for job in (alive, queued, done):
        before = job.status
        job.refresh_from_db()
        assert (job.status, job.requeues) == (before, 0)


@pytest.mark.django_db
def test_a_worker_stamps_the_unfinished_jobs_its_tasks_run():
    working = running_job(silent_for=LOST_AFTER * 2)
    done = Job.objects.create(kind=Job.Kind.TUNE, status=Job.Status.SUCCEEDED)
    other = running_job(silent_for=LOST_AFTER * 2)

    jobs_heartbeat(job_ids={working.pk, done.pk}, worker=WORKER)

    assert jobs_recover_lost() == [other.pk]
    assert Job.objects.get(pk=done.pk).heartbeat_at is None
    assert Job.objects.values_list("status", "worker").get(pk=working.pk) == (
        Job.Status.RUNNING,
        WORKER,
    )


@pytest.mark.django_db
def test_a_task_whose_job_was_sent_again_may_no_longer_write():
    """With SQLite a connection opened before an outage can outlive it: one worker sees the
    job silent and sends it again while the task on another still computes, unable to stamp."""
    job = running_job(silent_for=timedelta(seconds=1))
    superseded = str(job.celery_task_id)
    Job.objects.filter(pk=job.pk).update(celery_task_id="replacing-task")

    with transaction.atomic():
        assert job_lock_if_running(job_id=job.pk, task_id=superseded) is None
        assert job_lock_if_running(job_id=job.pk, task_id="replacing-task") is not None
        assert job_lock_if_running(job_id=job.pk) is not None, "a direct call is explicit"


@pytest.mark.django_db(transaction=True)
def test_while_the_database_is_unreachable_a_job_task_retries_past_its_limit(tmp_path, sent_again):
    """A queued job whose task cannot note its retry has only that message: dropped after
    the last retry, with nothing written, the job would stay queued for good. Once the
    database answers, the limit holds again. Committed, so the outage can be real."""
    job = Job.objects.create(kind=Job.Kind.PRE_ALIGN, task_name=RETRIED_TASK)
    task_id = str(job.celery_task_id)
    retried.push_request(
        id=task_id, args=(job.pk,), kwargs={}, retries=retried.max_retries, called_directly=False
    )
    try:
        with database_unreachable(tmp_path), pytest.raises(Retry):
            retried.retry(exc=DatabaseOperationalError("the database went away"), countdown=0)
        assert "override_max_retries" not in vars(retried), "a limit left for the next request"
        with pytest.raises(DatabaseOperationalError):
            retried.retry(exc=DatabaseOperationalError("the database went away"), countdown=0)
    finally:
        retried.pop_request()

    assert sent_again() == [(RETRIED_TASK, task_id)]
    job.refresh_from_db()
    assert (job.status, job.retries) == (Job.Status.QUEUED, 1), "the second retry was noted"


@override_settings(TANDEM_JOB_HEARTBEAT_SECONDS=0)
def test_a_worker_recovers_nothing_until_it_reached_the_database_since_its_last_failure():
    watch = DatabaseWatch()
    assert not watch.settled(), "never reached yet"
    watch.succeeded()
    assert watch.settled()
    watch.failed()
    assert not watch.settled()


@pytest.mark.skipif(
    connection.vendor != "sqlite", reason="a PostgreSQL outage cuts every connection"
)
@pytest.mark.django_db(transaction=True)
def test_a_sqlite_connection_opened_before_an_outage_does_not_hide_it(tmp_path):
    """The database's folder goes away while the worker's connection holds the file open, as
    a test of the fault suite once had it: that worker took for lost a job whose worker could
    not stamp it. Committed, as the watch replaces the test's connection."""
    watch = DatabaseWatch()
    tick(watch, WORKER)
    assert watch.reachable_since is not None
    saved = dict(connection.settings_dict)
    connection.ensure_connection()
    connection.settings_dict["NAME"] = str(tmp_path / "removed" / "tandem.sqlite3")
    try:
        tick(watch, WORKER)
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(saved)

    assert watch.reachable_since is None


@pytest.mark.django_db(transaction=True)
@override_settings(TANDEM_JOB_LOST_AFTER_SECONDS=LOST_AFTER.seconds // 4)
def test_after_a_database_outage_a_worker_waits_before_taking_silent_jobs_for_lost(
    tmp_path, sent_again
):
    """Through an outage nobody's stamps land: a job whose worker still runs it looks silent
    until that worker stamps it again. The tick survives the unreachable database, and sends
    nothing again until the database has been reachable for two heartbeats.

    The outage needs a committed job, which a session worker on the same database
    (tests/conftest.py) sees too: the rule runs here on a quarter of the shipped silence,
    so that worker, on the shipped one, never takes the job for lost before this tick does."""
    job = running_job(silent_for=timedelta(seconds=LOST_AFTER.seconds // 4 + 5))
    watch = DatabaseWatch()
    watch.succeeded()

    with database_unreachable(tmp_path):
        tick(watch, WORKER)
    assert watch.reachable_since is None
    tick(watch, WORKER)

    assert watch.reachable_since is not None
    assert Job.objects.get(pk=job.pk).status == Job.Status.RUNNING, "not yet settled"
    with override_settings(TANDEM_JOB_HEARTBEAT_SECONDS=0):
        tick(watch, WORKER)
    job.refresh_from_db()
    assert job.status == Job.Status.QUEUED
    assert sent_again() == [(UNKNOWN_TASK, str(job.celery_task_id))]


@pytest.mark.django_db(transaction=True)
def test_a_task_whose_retries_ran_out_in_an_outage_leaves_its_job_to_be_sent_again(
    tmp_path, sent_again
):
    """Retries whose jittered countdowns all fell within an outage, and the database back by
    the time Celery hands the failure to the task: the outage passed, so the job must come
    back, not end failed with an "unexpected error". Committed, so the failure can be real:
    the job is resent long before a session worker's shipped silence would take it for
    lost."""
    job = Job.objects.create(
        kind=Job.Kind.PRE_ALIGN, status=Job.Status.QUEUED, task_name=UNKNOWN_TASK, retries=5
    )
    task_id = str(job.celery_task_id)
    with database_unreachable(tmp_path), pytest.raises(DATABASE_ERRORS) as outage:
        Job.objects.count()

    pre_align.on_failure(outage.value, task_id, (job.pk,), {}, None)

    job.refresh_from_db()
    assert (job.status, job.error) == (Job.Status.RUNNING, "")
    assert job.message == f"interrupted ({type(outage.value).__name__}); to be sent again"
    assert jobs_recover_lost() == [], "silent from the failure on, not from its last stamp"
    assert jobs_recover_lost(now=timezone.now() + LOST_AFTER + timedelta(seconds=1)) == [job.pk]
    job.refresh_from_db()
    assert sent_again() == [(UNKNOWN_TASK, str(job.celery_task_id))]
    assert (job.status, job.requeues) == (Job.Status.QUEUED, 1)


@pytest.mark.django_db(transaction=True)
def test_a_task_stopped_by_any_other_error_fails_its_job_without_quoting_it():
    """Committed: the failure handler first replaces connections a failure may have broken,
    which ends a test's own transaction."""
    job = running_job(silent_for=timedelta(seconds=1))
    task_id = str(job.celery_task_id)

    pre_align.on_failure(ValueError("/srv/secret/path"), task_id, (job.pk,), {}, None)

    job.refresh_from_db()
    assert job.status == Job.Status.FAILED
    assert job.error == (
        "An unexpected error stopped the job; the administrators find it in the worker's log "
        f"under job {job.pk}."
    )
