from celery import Task, shared_task

from backend.documents.services import document_import_run


@shared_task(bind=True, name="backend.documents.tasks.import_document")
def import_document(self: Task, job_id: int) -> None:
    """Thin on purpose: the import is a backend service, so the demo command and tests run
    exactly the code the worker runs. No autoretry: a file that did not parse will not
    parse on a second try, and the job already says why."""
    document_import_run(job_id=job_id, task_id=self.request.id)
