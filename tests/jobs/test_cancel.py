"""A cancel is the job's row: the revoke that also tells the workers is best effort, so a
broker that is down neither fails the cancel nor holds its answer for Celery's retries."""

import logging

from backend.jobs.models import Job


def test_a_lead_cancels_a_job_while_the_broker_is_down(
    world, broker_down, caplog, django_capture_on_commit_callbacks
):
    url = f"/api/v1/projects/{world.project.pk}/jobs/{world.job.pk}/cancel/"

    with (
        caplog.at_level(logging.WARNING, logger="backend.jobs.services"),
        django_capture_on_commit_callbacks(execute=True) as revokes,
    ):
        response = world.client("lead").post(url)

    assert response.status_code == 200, response.content[:300]
    assert response.json()["status"] == Job.Status.CANCELLED
    assert Job.objects.get(pk=world.job.pk).status == Job.Status.CANCELLED
    assert len(revokes) == 1
    assert f"Cannot revoke task {world.job.celery_task_id}" in caplog.text
