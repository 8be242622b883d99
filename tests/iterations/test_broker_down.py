"""With the broker down, opening, adding documents and closing answer 503 and undo what they
wrote: no iteration open without its pre-alignment job, none closed without its tuning run."""

from backend.alignments.services.annotations import annotation_submit
from backend.alignments.services.pre_alignments import diagonal_parameter_set
from backend.iterations.models import AccuracyRecord, Iteration
from backend.jobs.models import Job
from tests.iterations.builders import annotating_iteration


def test_opening_is_undone_and_assignees_restored(world, broker_down):
    url = f"/api/v1/projects/{world.project.pk}/iterations/"
    body = {
        "documents": [world.document.pk],
        "assignments": [{"document": world.document.pk, "annotators": [world.lead.pk]}],
    }

    response = world.client("lead").post(url, body, format="json")

    assert response.status_code == 503
    assert "unreachable" in response.json()["detail"]
    assert list(Iteration.objects.filter(project=world.project)) == [world.iteration]
    world.document.refresh_from_db()
    assert world.document.iteration_id is None
    assert list(world.document.assignees.all()) == [world.annotator]
    assert Job.objects.get(kind=Job.Kind.PRE_ALIGN).status == Job.Status.FAILED


def test_closing_is_undone_when_tuning_cannot_be_queued(world, broker_down):
    iteration = annotating_iteration(world.project, [world.document])
    annotation_submit(annotator=world.annotator, document=world.document, version=0)
    url = f"/api/v1/projects/{world.project.pk}/iterations/{iteration.pk}/close/"

    response = world.client("lead").post(url, {}, format="json")

    assert response.status_code == 503
    iteration.refresh_from_db()
    assert iteration.closed_at is None
    assert iteration.status == "annotating"
    assert not AccuracyRecord.objects.exists()


def test_adding_documents_is_undone_and_the_batch_left_as_it_was(world, broker_down):
    iteration = annotating_iteration(world.project, [world.unassigned_document])
    iteration.parameter_set = diagonal_parameter_set(world.project)
    iteration.save(update_fields=["parameter_set"])
    finished_job = iteration.pre_align_job
    url = f"/api/v1/projects/{world.project.pk}/iterations/{iteration.pk}/documents/"
    body = {
        "documents": [world.document.pk],
        "assignments": [{"document": world.document.pk, "annotators": [world.lead.pk]}],
    }

    response = world.client("lead").post(url, body, format="json")

    assert response.status_code == 503
    iteration.refresh_from_db()
    assert iteration.pre_align_job == finished_job
    assert iteration.status == "annotating"
    world.document.refresh_from_db()
    assert world.document.iteration_id is None
    assert list(world.document.assignees.all()) == [world.annotator]
