"""The liveness rule without a worker: which running jobs count as lost, what happens to them,
and the heartbeat a task's thread records. The end-to-end case, a whole worker killed with
-9 on the embedded default, is in tests/workers/test_reliability.py."""

import time
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from backend.jobs.liveness import beating
from backend.jobs.models import Job
from backend.jobs.services import jobs_recover_lost

LOST_AFTER = timedelta(seconds=settings.TANDEM_JOB_LOST_AFTER_SECONDS)


def running_job(*, silent_for: timedelta, requeues: int = 0, task_name: str = "x.y") -> Job:
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
def test_a_silent_running_job_is_sent_again():
    job = running_job(silent_for=LOST_AFTER + timedelta(seconds=5))

    assert jobs_recover_lost() == [job.pk]

    job.refresh_from_db()
    assert job.status == Job.Status.RUNNING
    assert job.requeues == 1
    assert job.message.startswith("started again: no sign of life from its worker since ")
    assert timezone.now() - job.heartbeat_at < timedelta(seconds=5)
    assert jobs_recover_lost() == [], "sending it again restarts the clock"


@pytest.mark.django_db
def test_a_job_lost_again_after_its_last_chance_fails_with_the_reason():
    job = running_job(
        silent_for=LOST_AFTER * 2, requeues=settings.TANDEM_JOB_MAX_REQUEUES, task_name="x.y"
    )

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


@pytest.mark.django_db(transaction=True)
def test_a_task_beats_while_it_runs():
    """Its own thread and database connection stamp the job, so the test's transaction
    must not hold the row."""
    job = running_job(silent_for=LOST_AFTER * 2)

    with beating(job.pk):
        deadline = time.monotonic() + 10
        while Job.objects.get(pk=job.pk).heartbeat_at < timezone.now() - LOST_AFTER:
            assert time.monotonic() < deadline, "no heartbeat within 10 s"
            time.sleep(0.05)

    assert jobs_recover_lost() == []
