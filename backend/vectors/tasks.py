from celery import Task, shared_task

from backend.jobs.tasks import JobTask
from backend.vectors.services import vectors_train_run


@shared_task(bind=True, name="backend.vectors.tasks.train_vectors", base=JobTask)
def train_vectors(self: Task, job_id: int) -> None:
    """Routed to the cpu queue (CELERY_TASK_ROUTES)."""
    vectors_train_run(job_id=job_id, task_id=self.request.id)
