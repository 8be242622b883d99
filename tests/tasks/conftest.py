import time

import pytest

from backend.curation.public_meetings import public_meeting_gold_import
from backend.jobs.models import Job
from backend.projects.models import Membership, Project, Role
from tests.conftest import fail_if_every_worker_died
from tests.domain import make_user

JOB_TIMEOUT_SECONDS = 120
SMALL_MEETINGS = [
    "686239f069621dada25c3408f1867d66",  # 33 turns
    "0b9ec6f049e68d4a35fae75792e2a84e",  # 60
    "2f3f95e2eb2b4532169904b186a8cdf0",  # 65
    "e61c5b036f82adc9d2fdf464c28656ea",  # 166
]
FIVE_GOLD_MEETINGS = [*SMALL_MEETINGS[:3], "5860bd5928985249ce967af710051e06", SMALL_MEETINGS[3]]
"""The five smallest meetings (33 to 166 turns): the fewest gold documents a learned decision
is fitted from (`workers.align.learning.turn_decision.MIN_GOLD_DOCUMENTS`)."""


def wait_for_job(job_id: int, timeout: float = JOB_TIMEOUT_SECONDS) -> Job:
    """Polls the row the API reports, as a client polls the job endpoint; fails at once if
    the workers died."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = Job.objects.get(pk=job_id)
        if job.status in Job.FINISHED:
            return job
        fail_if_every_worker_died()
        time.sleep(0.2)
    pytest.fail(f"job {job_id} did not finish within {timeout}s: {Job.objects.get(pk=job_id)}")


def gold_project(meetings: int | list[str] = 4) -> tuple[Project, object, list]:
    """A project with a lead and public_meetings meetings as gold: the first `meetings`
    small ones, or those listed."""
    lead = make_user(f"lead-{time.monotonic_ns()}")
    project = Project.objects.create(name="tuning")
    Membership.objects.create(project=project, user=lead, role=Role.LEAD)
    documents = [
        public_meeting_gold_import(actor=lead, project=project, meeting_id=meeting)
        for meeting in (SMALL_MEETINGS[:meetings] if isinstance(meetings, int) else meetings)
    ]
    return project, lead, documents


MEETINGS_TO_INTERRUPT = [
    "686239f069621dada25c3408f1867d66",  # 33 turns: stored at once, so the fault lands
    "199073d27fc61f6a76cb1f9c1d977aa6",  # 842 turns: in the middle of this one
]
"""A job for fault tests: its first document is stored within a second and its second takes
seconds more, so a test that waits for the first and then strikes hits a job half done."""


@pytest.fixture
def dedicated_cpu_worker(celery_worker_process, tmp_path):
    """Start workers of one's own for the cpu queue: the session's worker stops consuming it
    meanwhile, so a test knows which process runs its task (and may kill it)."""
    from backend.celery import app as celery_app
    from tests.conftest import start_worker, stop_worker

    session = [celery_worker_process.name]
    celery_app.control.cancel_consumer("cpu", destination=session, reply=True, timeout=5)
    started = []

    def start(**env: str):
        worker = start_worker(tmp_path, concurrency=1, env=env)
        started.append(worker)
        return worker

    yield start
    for worker in started:
        stop_worker(worker)
    celery_app.control.add_consumer("cpu", destination=session, reply=True, timeout=5)
