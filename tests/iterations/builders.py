"""Iterations in a given state without a worker: the state's jobs are written as finished,
as a worker would leave them."""

from django.db.models import Max

from backend.alignments.models import Annotation
from backend.alignments.services.annotations import (
    AssignmentOperation,
    annotation_apply,
    annotation_submit,
)
from backend.documents.models import Document
from backend.iterations.models import Iteration
from backend.jobs.models import Job


def annotating_iteration(project, documents: list[Document]) -> Iteration:
    job = Job.objects.create(project=project, kind=Job.Kind.PRE_ALIGN, status=Job.Status.SUCCEEDED)
    last = Iteration.objects.filter(project=project).aggregate(last=Max("number"))["last"]
    iteration = Iteration.objects.create(project=project, number=(last or 0) + 1, pre_align_job=job)
    Document.objects.filter(pk__in=[document.pk for document in documents]).update(
        iteration=iteration
    )
    return iteration


def submit_moved(annotator, document: Document, moved: int, seconds: int = 0) -> Annotation:
    """Move the last `moved` turns of the document to segment 3, as the editor would, and
    submit."""
    version = 0
    if moved:
        turns = document.turn_count
        version = annotation_apply(
            annotator=annotator,
            document=document,
            version=0,
            operations=[AssignmentOperation("assign", turns - moved, turns - 1, 3)],
            seconds_spent=seconds,
        ).version
    return annotation_submit(annotator=annotator, document=document, version=version)
