from celery import shared_task

from workers.tasks.base import JobTask


@shared_task(bind=True, name="workers.tasks.vectors.train_vectors", base=JobTask)
def train_vectors(self, job_id: int) -> None:
    """Routed to the cpu queue (CELERY_TASK_ROUTES)."""
    from backend.vectors.services import vectors_train_run

    vectors_train_run(job_id=job_id, task_id=self.request.id)
