"""Iterations in a given state without a worker: the state's jobs are written as finished,
as a worker would leave them."""

from backend.documents.models import Document
from backend.iterations.models import Iteration
from backend.jobs.models import Job


def annotating_iteration(project, documents: list[Document], number: int = 1) -> Iteration:
    job = Job.objects.create(project=project, kind=Job.Kind.IMPORT_DOCUMENT, status="succeeded")
    iteration = Iteration.objects.create(project=project, number=number, pre_align_job=job)
    Document.objects.filter(pk__in=[document.pk for document in documents]).update(
        iteration=iteration
    )
    return iteration
