import time

import pytest

from backend.jobs.models import Job
from backend.projects.models import Membership, Project, Role
from backend.tuning.corpus import public_meeting_gold_import
from tests.domain import make_user

JOB_TIMEOUT_SECONDS = 120
SMALL_MEETINGS = [
    "686239f069621dada25c3408f1867d66",  # 33 turns
    "0b9ec6f049e68d4a35fae75792e2a84e",  # 60
    "2f3f95e2eb2b4532169904b186a8cdf0",  # 65
    "e61c5b036f82adc9d2fdf464c28656ea",  # 166
]


def wait_for_job(job_id: int, timeout: float = JOB_TIMEOUT_SECONDS) -> Job:
    """Polls the row the API reports, as a client polls the job endpoint."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = Job.objects.get(pk=job_id)
        if job.status in Job.FINISHED:
            return job
        time.sleep(0.2)
    pytest.fail(f"job {job_id} did not finish within {timeout}s: {Job.objects.get(pk=job_id)}")


def gold_project(meetings: int = 4) -> tuple[Project, object, list]:
    """A project with a lead and `meetings` small public_meetings meetings as gold."""
    lead = make_user(f"lead-{time.monotonic_ns()}")
    project = Project.objects.create(name="tuning")
    Membership.objects.create(project=project, user=lead, role=Role.LEAD)
    documents = [
        public_meeting_gold_import(actor=lead, project=project, meeting_id=meeting)
        for meeting in SMALL_MEETINGS[:meetings]
    ]
    return project, lead, documents
