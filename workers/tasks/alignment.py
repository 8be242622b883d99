from celery import shared_task

from workers.tasks.base import JobTask


@shared_task(bind=True, name="workers.tasks.alignment.pre_align", base=JobTask)
def pre_align(self, job_id: int) -> None:
    """Routed to the cpu queue (CELERY_TASK_ROUTES)."""
    from backend.alignments.services import pre_align_run

    pre_align_run(job_id=job_id, task_id=self.request.id)
