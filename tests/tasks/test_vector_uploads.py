"""Pretrained word vectors a project brings: uploaded by its lead, or the server's file
(`TANDEM_WORD_VECTORS`); alignments and tuning use them instead of training. Every vectors
file here is written by the test."""

import io

import numpy as np
import pytest
from django.test import override_settings
from gensim.models import KeyedVectors
from rest_framework.test import APIClient

from backend.alignments.models import PreAlignment
from backend.alignments.services.pre_alignments import parameter_set_get_or_create, pre_align_run
from backend.documents.selectors import document_meeting
from backend.jobs.models import Job
from backend.vectors.models import WordVectors
from backend.vectors.selectors import project_sentences
from backend.vectors.services import server_vectors_file, vectors_for, vectors_load
from tests.openapi import assert_matches_schema
from tests.tasks.conftest import gold_project, wait_for_job
from tests.tasks.test_pre_align import assert_stored_with_the_engines_own_confidence, start
from workers.align.folds import new_document_defaults
from workers.align.params import AlignmentParams, load_params
from workers.align.pipeline import align_meeting
from workers.align.scoring.tokens import lexical_tokens
from workers.align.scoring.vectors import TrainingSettings

EXTRA_WORDS = ["zzz-not-in-the-project", "another-stranger"]


def pretrained_for(project, dimensions: int = 16) -> KeyedVectors:
    """Random but fixed vectors for the project's words and a few it does not have."""
    sentences, _ = project_sentences(project_id=project.pk)
    words = sorted({token for s in sentences for token in lexical_tokens(s)}) + EXTRA_WORDS
    vectors = KeyedVectors(vector_size=dimensions)
    rows = np.random.default_rng(7).normal(size=(len(words), dimensions)).astype(np.float32)
    vectors.add_vectors(words, rows)
    return vectors


def vectors_bytes(vectors: KeyedVectors, tmp_path, binary: bool = False) -> bytes:
    path = tmp_path / ("v.bin" if binary else "v.vec")
    vectors.save_word2vec_format(str(path), binary=binary)
    return path.read_bytes()


def upload(client: APIClient, project, data: bytes, name: str = "vectors.vec"):
    file = io.BytesIO(data)
    file.name = name
    return client.post(
        f"/api/v1/projects/{project.pk}/word-vectors/upload/", {"file": file}, format="multipart"
    )


def lead_client(lead) -> APIClient:
    client = APIClient()
    client.force_login(lead)
    return client


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_pre_alignment_uses_the_uploaded_vectors_and_trains_none(celery_worker_process, tmp_path):
    project, lead, documents = gold_project(1)
    pretrained = pretrained_for(project)
    client = lead_client(lead)
    for training in Job.objects.filter(project=project, kind=Job.Kind.TRAIN_VECTORS):
        wait_for_job(training.pk)  # the one importing queued
    trained_before = set(WordVectors.objects.filter(project=project, origin="trained"))

    response = upload(client, project, vectors_bytes(pretrained, tmp_path), "cc.fr.vec")

    assert response.status_code == 201, response.json()
    assert response.json()["origin"] == "uploaded"
    assert response.json()["file_name"] == "cc.fr.vec"
    assert response.json()["vocabulary_size"] == len(pretrained.index_to_key)
    retraining = wait_for_job(
        client.post(f"/api/v1/projects/{project.pk}/word-vectors/").json()["id"]
    )
    assert retraining.result["word_vectors"] == response.json()["id"]
    params = AlignmentParams()
    parameter_set = parameter_set_get_or_create(
        project=project, name="embedding", params=params.to_dict(), engine_version="test"
    )
    job = wait_for_job(start(lead, project, parameter_set, documents))
    assert job.status == Job.Status.SUCCEEDED, job.error
    assert set(WordVectors.objects.filter(project=project, origin="trained")) == trained_before
    expected = align_meeting(document_meeting(documents[0]), params, pretrained)
    stored = PreAlignment.objects.get(document=documents[0], parameter_set=parameter_set)
    assert stored.labels == expected.labels.tolist()
    assert np.allclose(stored.confidences, expected.confidence)


@pytest.mark.django_db
def test_binary_word2vec_is_read_and_the_last_upload_is_the_one_used(tmp_path):
    project, lead, _ = gold_project(1)
    client = lead_client(lead)
    pretrained = pretrained_for(project)
    first = upload(client, project, vectors_bytes(pretrained, tmp_path, binary=True), "w.bin")
    smaller = pretrained_for(project, dimensions=8)
    second = upload(client, project, vectors_bytes(smaller, tmp_path), "small.vec")
    assert (first.status_code, second.status_code) == (201, 201)
    assert_matches_schema(first, "POST")
    listed = assert_matches_schema(client.get(f"/api/v1/projects/{project.pk}/word-vectors/"))
    assert [item["origin"] for item in listed["results"]] == ["uploaded", "uploaded"]
    assert listed["results"][0]["settings"] == {}

    chosen = vectors_for(project_id=project.pk, settings=AlignmentParams().vectors)
    assert chosen.pk == second.json()["id"]
    loaded = vectors_load(vectors_id=first.json()["id"])
    assert loaded.index_to_key == pretrained.index_to_key
    assert np.array_equal(loaded.vectors, pretrained.vectors)
    again = upload(client, project, vectors_bytes(pretrained, tmp_path, binary=True), "w.bin")
    assert again.json()["id"] == first.json()["id"]
    assert (
        vectors_for(project_id=project.pk, settings=AlignmentParams().vectors).pk
        == (first.json()["id"])
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (b"", "the file is empty"),
        (b"just some words\n", "line 1: expected a header line 'words dimensions'"),
        (b"2 3\nbonjour 1 0\nmerci 0 1 0\n", "not a word2vec text file"),
        (b"1 2\nbonjour nan 1\n", "NaN or infinite"),
    ],
)
def test_a_malformed_vectors_file_is_refused_by_name_and_nothing_is_stored(data, problem):
    project, lead, _ = gold_project(1)
    response = upload(lead_client(lead), project, data, "mine.vec")
    assert response.status_code == 400
    assert response.json()["detail"].startswith("mine.vec: ")
    assert problem in response.json()["detail"]
    assert not WordVectors.objects.filter(project=project).exists()


@pytest.mark.django_db
@override_settings(TANDEM_MAX_VECTORS_BYTES=100)
def test_a_vectors_file_over_the_limit_is_refused(tmp_path):
    project, lead, _ = gold_project(1)
    response = upload(lead_client(lead), project, vectors_bytes(pretrained_for(project), tmp_path))
    assert response.status_code == 413
    assert "the limit is 100 bytes" in response.json()["detail"]


@pytest.mark.django_db
def test_the_servers_file_is_cut_down_to_the_projects_words_until_an_upload(tmp_path):
    project, lead, _ = gold_project(1)
    pretrained = pretrained_for(project)
    server_file = tmp_path / "server.vec"
    pretrained.save_word2vec_format(str(server_file))

    with override_settings(TANDEM_WORD_VECTORS=str(server_file)):
        chosen = vectors_for(project_id=project.pk, settings=AlignmentParams().vectors)
        assert vectors_for(project_id=project.pk, settings=AlignmentParams().vectors) == chosen
        assert (chosen.origin, chosen.file_name) == ("server_file", "server.vec")
        loaded = vectors_load(vectors_id=chosen.pk)
        assert len(loaded.index_to_key) == len(pretrained.index_to_key) - len(EXTRA_WORDS)
        word = loaded.index_to_key[0]
        assert np.array_equal(loaded[word], pretrained[word])

        uploaded = upload(lead_client(lead), project, vectors_bytes(pretrained, tmp_path))
        current = vectors_for(project_id=project.pk, settings=AlignmentParams().vectors)
        assert current.pk == uploaded.json()["id"]

        deleted = lead_client(lead).delete(
            f"/api/v1/projects/{project.pk}/word-vectors/{current.pk}/"
        )
        assert deleted.status_code == 204
        assert vectors_for(project_id=project.pk, settings=AlignmentParams().vectors) == chosen


@pytest.mark.django_db
def test_the_servers_file_is_chosen_by_the_projects_language(tmp_path):
    french_project, _, _ = gold_project(1)
    french_file = tmp_path / "cc.fr.vec"
    pretrained_for(french_project).save_word2vec_format(str(french_file))
    english_file = tmp_path / "cc.en.vec"
    english_file.write_text("1 2\nhello 1 0\n", encoding="utf-8")
    setting = f"en={english_file},fr={french_file}"

    with override_settings(TANDEM_WORD_VECTORS=setting):
        chosen = vectors_for(project_id=french_project.pk, settings=AlignmentParams().vectors)
        assert chosen.file_name == "cc.fr.vec"
        assert server_vectors_file("en-GB") == english_file
        assert server_vectors_file("de") is None, "no file for German: it trains its own"
    with override_settings(TANDEM_WORD_VECTORS=f"{english_file},fr={french_file}"):
        assert server_vectors_file("de") == english_file


@pytest.mark.django_db
def test_lexical_parameters_get_the_projects_words_as_lexical_vectors_trained_on_nothing():
    project, _, _ = gold_project(1)
    lexical = TrainingSettings(kind="lexical")
    chosen = vectors_for(project_id=project.pk, settings=lexical)
    assert chosen.origin == WordVectors.Origin.LEXICAL
    assert vectors_for(project_id=project.pk, settings=lexical) == chosen
    sentences, _ = project_sentences(project_id=project.pk)
    loaded = vectors_load(vectors_id=chosen.pk)
    assert set(loaded.index_to_key) == {token for s in sentences for token in lexical_tokens(s)}
    assert not WordVectors.objects.filter(origin=WordVectors.Origin.TRAINED).exists()


@pytest.mark.django_db
def test_vectors_a_lead_uploaded_keep_the_engines_own_confidence(tmp_path):
    """No shipped prior was fitted on a lead's vectors: their evidence sits on a scale of its
    own, whatever kind of vectors the parameters name."""
    params = load_params(new_document_defaults())
    project, lead, documents = gold_project(1)
    response = upload(lead_client(lead), project, vectors_bytes(pretrained_for(project), tmp_path))
    assert response.status_code == 201, response.json()
    parameter_set = parameter_set_get_or_create(
        project=project, name="shipped", params=params.to_dict(), engine_version="test"
    )
    job_id = start(lead, project, parameter_set, documents)

    pre_align_run(job_id=job_id)

    assert Job.objects.get(pk=job_id).status == Job.Status.SUCCEEDED
    uploaded = WordVectors.objects.get(project=project, origin=WordVectors.Origin.UPLOADED)
    assert_stored_with_the_engines_own_confidence(documents[0], parameter_set, params, uploaded)
