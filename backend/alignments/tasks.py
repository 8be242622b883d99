from celery import Task, shared_task

from backend.alignments.services.pre_alignments import pre_align_run
from backend.jobs.tasks import JobTask


@shared_task(bind=True, name="backend.alignments.tasks.pre_align", base=JobTask)
def pre_align(self: Task, job_id: int) -> None:
    """Routed to the cpu queue (CELERY_TASK_ROUTES)."""
    pre_align_run(job_id=job_id, task_id=self.request.id)
