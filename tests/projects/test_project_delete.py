"""Deleting a project takes everything of it, including word vectors that its own tuning runs
used; deleting those vectors alone is refused while a run uses them."""

import pytest
from rest_framework.test import APIClient

from backend.projects.models import Project
from backend.tuning.models import TuningRun
from backend.vectors.models import WordVectors
from tests.domain import make_word_vectors
from tests.projects.test_permission_matrix import tuning_run


@pytest.fixture
def lead_and_project(django_user_model):
    lead = django_user_model.objects.create_user("lead", password="pw")
    client = APIClient()
    client.force_login(lead)
    project = Project.objects.create(name="P", created_by=lead)
    project.memberships.create(user=lead, role="lead")
    run = tuning_run(project)
    run.word_vectors = make_word_vectors(project)
    run.save(update_fields=["word_vectors"])
    return client, project, run


@pytest.mark.django_db
def test_a_project_whose_tuning_run_used_its_vectors_is_deleted_whole(lead_and_project):
    client, project, run = lead_and_project

    response = client.delete(f"/api/v1/projects/{project.pk}/")

    assert response.status_code == 204, response.content
    assert not Project.objects.filter(pk=project.pk).exists()
    assert not TuningRun.objects.filter(pk=run.pk).exists()
    assert not WordVectors.objects.filter(project_id=project.pk).exists()


@pytest.mark.django_db
def test_vectors_a_tuning_run_used_are_kept_until_the_run_goes(lead_and_project):
    client, project, run = lead_and_project
    url = f"/api/v1/projects/{project.pk}/word-vectors/{run.word_vectors_id}/"

    refused = client.delete(url)

    assert refused.status_code == 409
    assert "tuning run uses these word vectors" in refused.json()["detail"]
    assert WordVectors.objects.filter(pk=run.word_vectors_id).exists()
