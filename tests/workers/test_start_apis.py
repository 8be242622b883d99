"""Starting background work through the API: bad input gets a 400 naming the problem, a
down broker a 503 with nothing half-written, and reads keep working meanwhile."""

import pytest
from rest_framework.test import APIClient

from backend.alignments.models import ParameterSet, PreAlignment
from backend.jobs.models import Job
from backend.tuning.models import TuningRun
from backend.vectors.services import vectors_train_start
from tests.domain import build_world
from tests.workers.conftest import gold_project
from workers.align import tune
from workers.celery import app as celery_app

UNREACHABLE = "redis://127.0.0.1:9/0"


@pytest.fixture
def world(db):
    return build_world()


@pytest.fixture
def broker_down(monkeypatch):
    monkeypatch.setenv("CELERY_BROKER_URL", UNREACHABLE)
    monkeypatch.setitem(celery_app.conf, "broker_url", UNREACHABLE)


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
    assert f"no documents [{world.other_document.pk}]" in response.json()["detail"]


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
        {"gold_documents": [d.pk for d in documents], "grid": {"power": [1.0, 2.0]}},
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
        ({"grid": {"powr": [1.0]}}, "powr"),
        ({"grid": {"power": []}}, "non-empty list"),
        ({"grid": {"vectors__dimensions": [50, 100]}}, "vectors"),
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
    assert response.json() == {"ranked_by": ['"words" is not a valid choice.']}
    assert not TuningRun.objects.exists()


def test_tuning_on_a_document_without_submitted_annotation_is_refused(world):
    response = world.client("lead").post(
        f"/api/v1/projects/{world.project.pk}/tuning-runs/",
        {"gold_documents": [world.document.pk]},
        format="json",
    )

    assert response.status_code == 400
    assert "no submitted annotation" in response.json()["detail"]


def test_asking_twice_for_vectors_while_one_training_is_queued_gives_the_same_job(world):
    first = vectors_train_start(project=world.project)
    second = vectors_train_start(project=world.project)

    assert first.pk == second.pk
    assert Job.objects.filter(kind=Job.Kind.TRAIN_VECTORS).count() == 1


def test_heavy_tasks_go_to_the_cpu_queue_and_the_rest_to_default():
    router = celery_app.amqp.router

    def queue(task: str) -> str:
        return router.route({}, task)["queue"].name

    assert queue("workers.tasks.alignment.pre_align") == "cpu"
    assert queue("workers.tasks.vectors.train_vectors") == "cpu"
    assert queue("workers.tasks.tuning.prepare") == "cpu"
    assert queue("workers.tasks.tuning.evaluate_slice") == "cpu"
    assert queue("workers.tasks.tuning.finish_stage") == "default"
    assert queue("workers.tasks.imports.import_document") == "default"


def test_a_run_can_be_ranked_by_every_objective_the_engine_has_and_no_other():
    assert set(TuningRun.RankedBy.values) == set(tune.OBJECTIVES)
