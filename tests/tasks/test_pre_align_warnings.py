"""A pre-alignment job on a real worker says what is degenerate in each document's result:
stored with the pre-alignment, and listed in the job's result and message."""

import pytest
from rest_framework.test import APIClient

from backend.alignments.models import PreAlignment
from backend.alignments.services.pre_alignments import (
    diagonal_parameter_set,
    shipped_parameter_set,
)
from backend.jobs.models import Job
from backend.projects.models import Membership, Project, Role
from tests.align.off_topic_pair import TURNS
from tests.domain import make_user
from tests.openapi import assert_matches_schema
from tests.tasks.conftest import gold_project, wait_for_job
from tests.tasks.off_topic import off_topic_document
from tests.tasks.test_pre_align import start
from workers.align.diagnosis import ALL_UNALIGNED


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_an_off_topic_document_is_pre_aligned_with_a_warning(celery_worker_process):
    lead = make_user("lead")
    project = Project.objects.create(name="first contact", language="en")
    Membership.objects.create(project=project, user=lead, role=Role.LEAD)
    document = off_topic_document(project)
    shipped = shipped_parameter_set(project)

    job = wait_for_job(start(lead, project, shipped, [document]))

    assert job.status == Job.Status.SUCCEEDED, job.error
    stored = PreAlignment.objects.get(document=document, parameter_set=shipped)
    assert stored.labels == [-1] * TURNS
    [warning] = stored.warnings
    assert warning["code"] == ALL_UNALIGNED
    assert warning["message"] == f"{TURNS} of {TURNS} turns (100% of the words) are left unaligned."
    client = APIClient()
    client.force_login(lead)
    shown = assert_matches_schema(client.get(f"/api/v1/projects/{project.pk}/jobs/{job.pk}/"))
    assert shown["result"]["warnings"] == [{"document": document.pk, **warning}]
    assert shown["message"] == (
        "1 document pre-aligned; 1 with warnings of a degenerate result (shown in the editor)"
    )


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_meeting_pre_aligned_with_the_diagonal_gets_no_warning(celery_worker_process):
    project, lead, documents = gold_project(1)
    job = wait_for_job(start(lead, project, diagonal_parameter_set(project), documents))
    assert job.status == Job.Status.SUCCEEDED, job.error
    assert job.result["warnings"] == []
    assert job.message == "1 document pre-aligned"
    stored = PreAlignment.objects.get(document=documents[0], parameter_set__isnull=False)
    assert stored.warnings == []
