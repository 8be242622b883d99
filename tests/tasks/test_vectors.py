"""Word vectors trained by a worker, stored in the database, loaded by any process."""

import numpy as np
import pytest
from rest_framework.test import APIClient

from backend.jobs.models import Job
from backend.vectors.models import WordVectors
from backend.vectors.selectors import project_sentences
from backend.vectors.services import vectors_load
from tests.openapi import assert_matches_schema
from tests.tasks.conftest import gold_project, wait_for_job
from workers.align.scoring.lexical import lexical_vectors, sentence_words


@pytest.mark.worker
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_worker_prepares_the_projects_vectors_once_and_any_process_loads_them(
    celery_worker_process,
):
    project, lead, _ = gold_project(2)
    # Adding documents queued a training already; one may have run on the first alone.
    assert Job.objects.filter(project=project, kind=Job.Kind.TRAIN_VECTORS).exists()
    client = APIClient()
    client.force_login(lead)
    url = f"/api/v1/projects/{project.pk}/word-vectors/"

    first = wait_for_job(client.post(url).json()["id"])
    again = wait_for_job(client.post(url).json()["id"])

    assert first.status == again.status == Job.Status.SUCCEEDED, (first.error, again.error)
    assert again.result["word_vectors"] == first.result["word_vectors"]
    assert WordVectors.objects.filter(project=project, document_count=2).count() == 1
    assert_matches_schema(client.get(f"/api/v1/projects/{project.pk}/jobs/{first.pk}/"))
    listed = assert_matches_schema(client.get(url))["results"]
    assert listed[0]["id"] == first.result["word_vectors"]
    sentences, document_count = project_sentences(project_id=project.pk)
    assert document_count == listed[0]["document_count"] == 2
    assert listed[0]["sentence_count"] == len(sentences)
    loaded = vectors_load(vectors_id=first.result["word_vectors"])
    # A project with no promoted parameters gets what the shipped defaults ask for: lexical.
    assert listed[0]["origin"] == "lexical"
    expected = lexical_vectors(sentence_words(sentences), project.language)
    assert loaded.index_to_key == expected.index_to_key
    assert np.array_equal(loaded.vectors, expected.vectors)
