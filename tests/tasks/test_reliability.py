"""What the workers promise when things go wrong, each against real worker processes: a
worker killed mid-task, a database connection lost mid-task, a permanent error, a task run
twice. The first two need Redis and PostgreSQL (CI's setup)."""

import os
import signal
import time
from collections import Counter

import pytest
from django.conf import settings
from django.db import connection

from backend.alignments.models import ParameterSet, PreAlignment
from backend.alignments.services.pre_alignments import (
    parameter_set_get_or_create,
    pre_align_run,
    pre_align_start,
)
from backend.jobs.models import Job
from backend.vectors.services import vectors_for
from tests.conftest import test_database_url
from tests.tasks.conftest import BIG_MEETINGS, gold_project, wait_for_job
from workers.align.params import AlignmentParams

VISIBILITY_TIMEOUT = "5"
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
    settings.CELERY_BROKER_URL.startswith("filesystem://"),
    reason="the filesystem broker cannot redeliver a message whose worker was killed; "
    "CI runs this against Redis",
)
@pytest.mark.django_db(transaction=True)
def test_a_task_whose_worker_is_killed_is_delivered_again_and_completes(dedicated_cpu_worker):
    project, lead, documents, parameter_set = embedding_pre_alignment(BIG_MEETINGS)
    victim = dedicated_cpu_worker(CELERY_VISIBILITY_TIMEOUT=VISIBILITY_TIMEOUT)

    job = pre_align_start(
        actor=lead, project=project, documents=documents, parameter_set=parameter_set
    )
    wait_until_first_document_is_stored(job.pk)
    os.killpg(victim.process.pid, signal.SIGKILL)
    victim.process.wait()
    stored_before_the_kill = set(PreAlignment.objects.values_list("document_id", flat=True))
    assert 0 < len(stored_before_the_kill) < len(documents)
    dedicated_cpu_worker(CELERY_VISIBILITY_TIMEOUT=VISIBILITY_TIMEOUT)
    job = wait_for_job(job.pk)

    assert job.status == Job.Status.SUCCEEDED, job.error
    assert PreAlignment.objects.filter(parameter_set=parameter_set).count() == len(documents)
    assert set(job.result["resumed"]) == stored_before_the_kill
    for pre_alignment in PreAlignment.objects.select_related("document"):
        assert len(pre_alignment.labels) == pre_alignment.document.turn_count


@pytest.mark.worker
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_job_whose_whole_worker_is_killed_is_recovered_on_any_broker(dedicated_cpu_worker):
    """The hardening probe's case: on the embedded default (the filesystem broker loses the
    killed worker's message) the job stayed `running` forever, then for 10 minutes. With the
    default liveness settings, the next worker finds it silent, sends it again once, and it
    completes once, resuming what was stored: one pre-alignment per document."""
    project, lead, documents, parameter_set = embedding_pre_alignment(BIG_MEETINGS)
    victim = dedicated_cpu_worker()

    job = pre_align_start(
        actor=lead, project=project, documents=documents, parameter_set=parameter_set
    )
    wait_until_first_document_is_stored(job.pk)
    os.killpg(victim.process.pid, signal.SIGKILL)
    victim.process.wait()
    stored_before_the_kill = set(PreAlignment.objects.values_list("document_id", flat=True))
    assert 0 < len(stored_before_the_kill) < len(documents)
    assert Job.objects.get(pk=job.pk).status == Job.Status.RUNNING
    dedicated_cpu_worker()
    job = wait_for_job(job.pk)

    assert job.status == Job.Status.SUCCEEDED, job.error
    assert job.requeues == 1
    per_document = Counter(
        PreAlignment.objects.filter(parameter_set=parameter_set).values_list(
            "document_id", flat=True
        )
    )
    assert per_document == Counter({document.pk: 1 for document in documents})
    assert stored_before_the_kill <= set(job.result["resumed"])


@pytest.mark.worker
@pytest.mark.slow
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="cutting one worker's database connections needs PostgreSQL; CI runs it",
)
@pytest.mark.django_db(transaction=True)
def test_a_lost_database_connection_is_retried_with_backoff(dedicated_cpu_worker):
    project, lead, documents, parameter_set = embedding_pre_alignment(BIG_MEETINGS)
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
