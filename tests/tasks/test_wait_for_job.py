"""The tests' own wait for a job: a worker that died shows up as its log, not as a timeout."""

import os
import signal

import pytest

import tests.conftest as fixtures
from backend.jobs.models import Job
from tests.tasks.conftest import wait_for_job


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_waiting_for_a_job_fails_with_the_log_when_every_worker_died(tmp_path, monkeypatch):
    monkeypatch.setattr(fixtures, "_STARTED_WORKERS", [])
    worker = fixtures.start_worker(tmp_path, concurrency=1)
    os.killpg(worker.process.pid, signal.SIGKILL)
    worker.process.wait()
    job = Job.objects.create(kind=Job.Kind.TUNE)

    with pytest.raises(pytest.fail.Exception, match=r"exited with -9 while the test waited"):
        wait_for_job(job.pk, timeout=60)

    fixtures.stop_worker(worker)
    assert fixtures._STARTED_WORKERS == []
