"""Starting background work through the API: bad input gets a 400 naming the problem, a
down broker a 503 with nothing half-written, and reads keep working meanwhile."""

import pytest
from rest_framework.test import APIClient

from backend.alignments.models import ParameterSet, PreAlignment
from backend.alignments.services.pre_alignments import PRE_ALIGN_TASK
from backend.celery import app as celery_app
from backend.documents.services import IMPORT_TASK
from backend.jobs.models import Job
from backend.tuning.models import TuningRun
from backend.tuning.services import FINISH_STAGE_TASK, PREPARE_TASK, SLICE_TASK
from backend.vectors.services import TRAIN_TASK, vectors_train_start
from tests.domain import build_world
from tests.tasks.conftest import gold_project
from workers.align.tuning import tune


@pytest.fixture
def world(db):
    return build_world()


def lead_client(lead) -> APIClient:
    client = APIClient()
    client.force_login(lead)
    return client


def engine_parameter_set(world) -> ParameterSet:
    return ParameterSet.objects.get(project=world.project, name="engine")


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ({"documents": [1]}, "parameter_set"),
        ({"parameter_set": 0, "documents": []}, "documents"),
        ({"parameter_set": None}, "parameter_set"),
    ],
)
def test_a_malformed_pre_alignment_request_is_refused(world, body, problem):
    response = world.client("lead").post(
        f"/api/v1/projects/{world.project.pk}/pre-alignments/", body, format="json"
    )

    assert response.status_code == 400
    assert problem in str(response.json())
    assert not Job.objects.filter(kind=Job.Kind.PRE_ALIGN).exists()


def test_pre_aligning_another_projects_document_is_refused(world):
    response = world.client("lead").post(
        f"/api/v1/projects/{world.project.pk}/pre-alignments/",
        {"parameter_set": engine_parameter_set(world).pk, "documents": [world.other_document.pk]},
        format="json",
    )

    assert response.status_code == 400
    assert response.json() == {
        "detail": f"Project {world.project.pk} has no document {world.other_document.pk}.",
        "field": "documents",
    }


def test_a_parameter_set_the_aligner_cannot_read_is_refused(world):
    broken = ParameterSet.objects.create(project=world.project, name="typo", params={"powr": 2})

    response = world.client("lead").post(
        f"/api/v1/projects/{world.project.pk}/pre-alignments/",
        {"parameter_set": broken.pk, "documents": [world.document.pk]},
        format="json",
    )

    assert response.status_code == 400
    assert "'typo'" in response.json()["detail"]
    assert "powr" in response.json()["detail"]


def test_pre_aligning_with_the_broker_down_answers_503_and_stores_nothing(world, broker_down):
    before = PreAlignment.objects.count()
    client = world.client("lead")

    response = client.post(
        f"/api/v1/projects/{world.project.pk}/pre-alignments/",
        {"parameter_set": engine_parameter_set(world).pk, "documents": [world.document.pk]},
        format="json",
    )

    assert response.status_code == 503
    assert "task queue is unreachable" in response.json()["detail"]
    assert PreAlignment.objects.count() == before
    job = Job.objects.get(kind=Job.Kind.PRE_ALIGN)
    assert job.status == Job.Status.FAILED
    assert client.get(f"/api/v1/projects/{world.project.pk}/jobs/").status_code == 200
    assert client.get(f"/api/v1/projects/{world.project.pk}/documents/").status_code == 200


def test_training_vectors_with_the_broker_down_answers_503_and_leaves_no_queued_job(
    world, broker_down
):
    response = world.client("lead").post(f"/api/v1/projects/{world.project.pk}/word-vectors/")

    assert response.status_code == 503
    assert not Job.objects.filter(kind=Job.Kind.TRAIN_VECTORS, status=Job.Status.QUEUED).exists()


@pytest.mark.django_db
def test_tuning_with_the_broker_down_answers_503_and_leaves_no_run(broker_down):
    project, lead, documents = gold_project(2)
    client = lead_client(lead)

    response = client.post(
        f"/api/v1/projects/{project.pk}/tuning-runs/",
        {"gold_documents": [d.pk for d in documents], "grid": {"dp.power": [1.0, 2.0]}},
        format="json",
    )

    assert response.status_code == 503
    assert not TuningRun.objects.exists()
    assert Job.objects.get(kind=Job.Kind.TUNE).status == Job.Status.FAILED
    listed = client.get(f"/api/v1/projects/{project.pk}/tuning-runs/")
    assert listed.status_code == 200
    assert listed.json()["count"] == 0


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ({"grid": {"dp.powr": [1.0]}}, "There is no setting dp.powr (did you mean power?)"),
        ({"grid": {"power": [1.0]}}, "There is no setting 'power' (did you mean dp.power?)"),
        ({"grid": {"turns.gap_open": [1.0]}}, "sets turns.gap_open but tries no turns aligner"),
        ({"grid": {"dp.power": []}}, "non-empty list"),
        ({"grid": {"vectors.dimensions": [50, 100]}}, "vectors"),
        ({"stages": [{"documents": 1, "keep": 0.5}]}, "last stage"),
        ({"stages": [{"documents": 0, "keep": 0}]}, "documents: n >= 1"),
    ],
)
@pytest.mark.django_db
def test_a_tuning_request_the_engine_cannot_run_is_refused(body, problem):
    project, lead, documents = gold_project(1)

    response = lead_client(lead).post(
        f"/api/v1/projects/{project.pk}/tuning-runs/",
        {"gold_documents": [documents[0].pk], **body},
        format="json",
    )

    assert response.status_code == 400
    assert problem in response.json()["detail"]
    assert not TuningRun.objects.exists()


@pytest.mark.django_db
def test_a_tuning_request_for_an_unknown_objective_names_the_choices():
    project, lead, documents = gold_project(1)

    response = lead_client(lead).post(
        f"/api/v1/projects/{project.pk}/tuning-runs/",
        {"gold_documents": [documents[0].pk], "ranked_by": "words"},
        format="json",
    )

    assert response.status_code == 400
    assert response.json() == {
        "detail": 'ranked_by: "words" is not a valid choice.',
        "ranked_by": ['"words" is not a valid choice.'],
    }
    assert not TuningRun.objects.exists()


def test_tuning_on_documents_of_other_projects_names_each_missing_id(world):
    foreign = [world.other_document.pk, world.other_document.pk + 1000]

    response = world.client("lead").post(
        f"/api/v1/projects/{world.project.pk}/tuning-runs/",
        {"gold_documents": [world.document.pk, *foreign]},
        format="json",
    )

    assert response.status_code == 400
    assert response.json() == {
        "detail": f"Project {world.project.pk} has no documents {foreign[0]} and {foreign[1]}.",
        "field": "gold_documents",
    }
    assert not TuningRun.objects.exists()


def test_tuning_on_a_document_without_submitted_annotation_is_refused(world):
    response = world.client("lead").post(
        f"/api/v1/projects/{world.project.pk}/tuning-runs/",
        {"gold_documents": [world.document.pk]},
        format="json",
    )

    assert response.status_code == 400
    assert "has no gold to tune on: no submission yet" in response.json()["detail"]


def test_asking_twice_for_vectors_while_one_training_is_queued_gives_the_same_job(world):
    first = vectors_train_start(project=world.project)
    second = vectors_train_start(project=world.project)

    assert first.pk == second.pk
    assert Job.objects.filter(kind=Job.Kind.TRAIN_VECTORS).count() == 1


def test_heavy_tasks_go_to_the_cpu_queue_and_the_rest_to_default():
    """Services send tasks by name: each name must be a task the workers register, and the
    routes (CELERY_TASK_ROUTES) must match those names."""
    celery_app.loader.import_default_modules()
    router = celery_app.amqp.router

    def queue(task: str) -> str:
        assert task in celery_app.tasks, f"no registered task is named {task}"
        return router.route({}, task)["queue"].name

    assert queue(PRE_ALIGN_TASK) == "cpu"
    assert queue(TRAIN_TASK) == "cpu"
    assert queue(PREPARE_TASK) == "cpu"
    assert queue(SLICE_TASK) == "cpu"
    assert queue(FINISH_STAGE_TASK) == "default"
    assert queue(IMPORT_TASK) == "default"


def test_a_run_can_be_ranked_by_every_objective_the_engine_has_and_no_other():
    assert set(TuningRun.RankedBy.values) == set(tune.OBJECTIVES)
