"""What the workers promise when things go wrong, each against real worker processes: a
database connection lost mid-task (PostgreSQL, CI's setup), a permanent error, a task run
twice. A whole worker killed, the database and the broker stopped: tests/tasks/test_faults.py."""

import time

import pytest
from django.db import connection
from django_celery_results.models import TaskResult

from backend.alignments.models import ParameterSet, PreAlignment
from backend.alignments.services.pre_alignments import (
    parameter_set_get_or_create,
    pre_align_run,
    pre_align_start,
)
from backend.jobs.models import Job
from backend.vectors.services import vectors_for
from tests.conftest import test_database_url
from tests.tasks.conftest import MEETINGS_TO_INTERRUPT, gold_project, wait_for_job
from workers.align.params import AlignmentParams

DEAD_CONNECTION_APP = "tandem-retry-test"


def embedding_pre_alignment(meetings):
    """Documents and a dp+embedding parameter set with the vectors already trained, so the
    job spends its time aligning, one document after another."""
    project, lead, documents = gold_project(meetings)
    params = AlignmentParams()
    vectors_for(project_id=project.pk, settings=params.vectors)
    parameter_set = parameter_set_get_or_create(
        project=project, name="embedding dp", params=params.to_dict(), engine_version="test"
    )
    return project, lead, documents, parameter_set


def wait_until_first_document_is_stored(job_id: int) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        job = Job.objects.get(pk=job_id)
        if job.status == Job.Status.RUNNING and job.progress > 0:
            return
        assert job.status in (Job.Status.QUEUED, Job.Status.RUNNING), job.error
        time.sleep(0.02)
    pytest.fail("the job never stored its first document")


@pytest.mark.worker
@pytest.mark.slow
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="cutting one worker's database connections needs PostgreSQL; CI runs it",
)
@pytest.mark.django_db(transaction=True)
def test_a_lost_database_connection_is_retried_with_backoff(dedicated_cpu_worker):
    project, lead, documents, parameter_set = embedding_pre_alignment(MEETINGS_TO_INTERRUPT)
    dedicated_cpu_worker(
        DATABASE_URL=f"{test_database_url()}?application_name={DEAD_CONNECTION_APP}"
    )

    job = pre_align_start(
        actor=lead, project=project, documents=documents, parameter_set=parameter_set
    )
    wait_until_first_document_is_stored(job.pk)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s",
            [DEAD_CONNECTION_APP],
        )
        assert cursor.fetchall(), "the worker had no connection to cut"
    job = wait_for_job(job.pk)

    assert job.status == Job.Status.SUCCEEDED, job.error
    assert job.retries >= 1
    assert job.requeues == 0, "the retry itself ran the job, not the liveness rule's re-send"
    assert PreAlignment.objects.filter(parameter_set=parameter_set).count() == len(documents)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_permanent_error_fails_the_job_at_once_with_its_message(dedicated_cpu_worker):
    project, lead, documents = gold_project(1)
    parameter_set = parameter_set_get_or_create(
        project=project, name="later broken", params={}, engine_version="test"
    )
    job = pre_align_start(
        actor=lead, project=project, documents=documents, parameter_set=parameter_set
    )
    ParameterSet.objects.filter(pk=parameter_set.pk).update(params={"windw": 3})
    dedicated_cpu_worker()
    job = wait_for_job(job.pk)

    assert job.status == Job.Status.FAILED
    assert "later broken" in job.error
    assert "windw" in job.error
    assert job.retries == 0
    assert not PreAlignment.objects.exists()
    assert not TaskResult.objects.filter(task_id=str(job.celery_task_id)).exists(), (
        "a job task writes nothing to Celery's result backend, around its body or after it"
    )


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_running_a_pre_alignment_twice_leaves_the_same_rows(celery_worker_process):
    project, lead, documents = gold_project(2)
    diagonal = parameter_set_get_or_create(
        project=project,
        name="diagonal",
        params=AlignmentParams.of("diagonal").to_dict(),
        engine_version="test",
    )
    job = wait_for_job(
        pre_align_start(actor=lead, project=project, documents=documents, parameter_set=diagonal).pk
    )
    rows = list(PreAlignment.objects.order_by("pk").values("pk", "document", "labels"))

    pre_align_run(job_id=job.pk)
    Job.objects.filter(pk=job.pk).update(status=Job.Status.RUNNING)
    pre_align_run(job_id=job.pk)

    assert list(PreAlignment.objects.order_by("pk").values("pk", "document", "labels")) == rows
    assert Job.objects.get(pk=job.pk).result["resumed"] == [d.pk for d in documents]
