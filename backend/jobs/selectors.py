from django.db.models import QuerySet

from backend.core.errors import NotFound
from backend.jobs.models import Job


def job_list(*, project_id: int, status: str | None = None) -> QuerySet[Job]:
    jobs = Job.objects.filter(project_id=project_id)
    return jobs.filter(status=status) if status else jobs


def job_get(*, project_id: int, job_id: int) -> Job:
    job = Job.objects.filter(project_id=project_id, pk=job_id).first()
    if job is None:
        raise NotFound(f"Project {project_id} has no job {job_id}.")
    return job
