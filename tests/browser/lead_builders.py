"""The bootstrap loop driven through its services on the real worker, so the lead's pages
show what a project really goes through: documents imported from public_meetings,
iterations pre-aligned by a job, corrected by an annotator, closed (and tuned)."""

from backend.alignments.services.annotations import (
    AssignmentOperation,
    annotation_apply,
    annotation_submit,
)
from backend.curation.public_meetings import import_public_meeting
from backend.documents.models import Document
from backend.iterations.models import Iteration, StartingParameters
from backend.iterations.services import iteration_close, iteration_open
from backend.jobs.models import Job
from tests.tasks.conftest import wait_for_job

JOB_TIMEOUT_SECONDS = 180
TINY_GRID = {
    "aligner": ["gapped"],
    "scoring.method": ["tfidf"],
    "gapped.match_offset": [0.25, 0.45],
}
"""Two settings with tf-idf scoring (no word vectors to train): a tuning run in seconds."""


def wait_for_success(job: Job) -> Job:
    job = wait_for_job(job.pk, timeout=JOB_TIMEOUT_SECONDS)
    assert job.status == Job.Status.SUCCEEDED, f"job {job.pk} {job.status}: {job.error}"
    return job


def import_meetings(team, meeting_ids: list[str]) -> list[Document]:
    return [
        import_public_meeting(
            actor=team.lead,
            project=team.project,
            meeting_id=meeting_id,
            with_initial_pre_alignment=False,
        )
        for meeting_id in meeting_ids
    ]


def pre_aligned_iteration(team, documents: list[Document]) -> Iteration:
    iteration = iteration_open(
        actor=team.lead,
        project=team.project,
        documents=documents,
        assignments={document.pk: [team.annotator.pk] for document in documents},
        starting=StartingParameters.DIAGONAL,
    )
    wait_for_success(iteration.pre_align_job)
    return iteration


def correct_and_submit(team, document: Document, unaligned: int, seconds: int) -> None:
    """The annotator marks the first `unaligned` turns unaligned (each one a change, since
    every pre-aligned turn has a segment) and submits."""
    version = 0
    if unaligned:
        version = annotation_apply(
            annotator=team.annotator,
            document=document,
            version=0,
            operations=[AssignmentOperation("unalign", 0, unaligned - 1)],
            seconds_spent=seconds,
        ).version
    annotation_submit(annotator=team.annotator, document=document, version=version)


def closed_iteration(team, corrections: dict[Document, tuple[int, int]], grid=None) -> Iteration:
    """`corrections`: document -> (turns marked unaligned, seconds spent). Tuned on `grid`
    (and waited for) when given, closed without tuning otherwise."""
    iteration = pre_aligned_iteration(team, list(corrections))
    for document, (unaligned, seconds) in corrections.items():
        correct_and_submit(team, document, unaligned, seconds)
    iteration = iteration_close(
        actor=team.lead, iteration=iteration, tune=grid is not None, grid=grid
    )
    if grid is not None:
        iteration.refresh_from_db()
        wait_for_success(iteration.tuning_run.job)
    return iteration
