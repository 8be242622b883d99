"""Pre-alignment jobs through a real worker: the engine's labels, stored per document."""

import json

import numpy as np
import pytest
from rest_framework.test import APIClient

from backend.alignments.models import PreAlignment
from backend.alignments.services.pre_alignments import (
    diagonal_parameter_set,
    parameter_set_get_or_create,
    pre_align_run,
    takes_prior,
)
from backend.documents.models import Document
from backend.documents.selectors import document_meeting
from backend.jobs.models import Job
from backend.jobs.services import job_cancel
from backend.projects.models import Project
from backend.vectors.models import WordVectors
from backend.vectors.services import vectors_load
from tests.domain import make_word_vectors
from tests.openapi import assert_matches_schema
from tests.tasks.conftest import FIVE_GOLD_MEETINGS, gold_project, wait_for_job
from workers.align.corpus import load_public_meetings, meeting_ids, meeting_of_source
from workers.align.folds import new_document_defaults
from workers.align.learning.prior import load_prior, prior_fold, prior_for_source
from workers.align.params import AlignmentParams, load_params
from workers.align.pipeline import align_and_decide, align_meeting, fit_learned_decision


def assert_stored_with_the_engines_own_confidence(document, parameter_set, params, vectors):
    """The document's stored pre-alignment is the engine's with `vectors`, uncalibrated, and
    says so."""
    expected = align_meeting(
        document_meeting(document), params, vectors_load(vectors_id=vectors.pk)
    )
    stored = PreAlignment.objects.get(document=document, parameter_set=parameter_set)
    assert stored.labels == expected.labels.tolist()
    assert np.allclose(stored.confidences, expected.confidence)
    assert (stored.calibration, stored.run_correlation) == (PreAlignment.Calibration.NONE, None)


def start(lead, project, parameter_set, documents):
    client = APIClient()
    client.force_login(lead)
    response = client.post(
        f"/api/v1/projects/{project.pk}/pre-alignments/",
        {"parameter_set": parameter_set.pk, "documents": [d.pk for d in documents]},
        format="json",
    )
    assert response.status_code == 202, response.json()
    assert response["Location"].endswith(f"/jobs/{response.json()['id']}/")
    return response.json()["id"]


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_diagonal_baseline_pre_aligns_each_document_without_vectors(celery_worker_process):
    project, lead, documents = gold_project(2)
    diagonal = diagonal_parameter_set(project)
    assert diagonal_parameter_set(project).pk == diagonal.pk

    job = wait_for_job(start(lead, project, diagonal, documents))

    assert job.status == Job.Status.SUCCEEDED, job.error
    assert job.result["resumed"] == []
    lead_client = APIClient()
    lead_client.force_login(lead)
    shown = assert_matches_schema(lead_client.get(f"/api/v1/projects/{project.pk}/jobs/{job.pk}/"))
    assert len(shown["result"]["pre_alignments"]) == len(documents)
    for document in documents:
        stored = PreAlignment.objects.get(document=document, parameter_set=diagonal)
        expected = align_meeting(document_meeting(document), AlignmentParams.of("diagonal"))
        assert stored.labels == expected.labels.tolist()
        assert stored.confidences == pytest.approx(expected.confidence.tolist())
        assert stored.params["aligner"] == "diagonal"


@pytest.mark.worker
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_an_embedding_parameter_set_uses_the_projects_make_word_vectors(celery_worker_process):
    project, lead, documents = gold_project(1)
    params = AlignmentParams()
    parameter_set = parameter_set_get_or_create(
        project=project, name="embedding", params=params.to_dict(), engine_version="test"
    )

    job = wait_for_job(start(lead, project, parameter_set, documents))

    assert job.status == Job.Status.SUCCEEDED, job.error
    # Importing queued the lexical vectors the shipped defaults read; these params train word2vec.
    vectors = WordVectors.objects.get(project=project, origin=WordVectors.Origin.TRAINED)
    assert_stored_with_the_engines_own_confidence(documents[0], parameter_set, params, vectors)
    assert Document.objects.get(pk=documents[0].pk).status == Document.Status.SUBMITTED


@pytest.mark.django_db
def test_a_cancelled_pre_alignment_stores_nothing():
    project, lead, documents = gold_project(2)
    diagonal = diagonal_parameter_set(project)
    job_id = start(lead, project, diagonal, documents)
    job_cancel(actor=lead, job=Job.objects.get(pk=job_id))

    pre_align_run(job_id=job_id)

    assert not PreAlignment.objects.filter(parameter_set=diagonal).exists()
    assert Job.objects.get(pk=job_id).status == Job.Status.CANCELLED


ORIGIN_OF_KIND = {"word2vec": WordVectors.Origin.TRAINED, "lexical": WordVectors.Origin.LEXICAL}


@pytest.mark.django_db
@pytest.mark.parametrize("vectors_kind", ["word2vec", "lexical"])
def test_turn_path_parameters_without_a_learned_decision_get_the_prior_calibration(vectors_kind):
    """Until a project's gold fits a decision, the shipped prior for the parameters' kind of
    vectors calibrates the turn path's confidence (the one fitted on the other fold for a
    corpus meeting): word2vec trained on the project's texts, or the lexical vectors of a new
    project's shipped defaults; a project that switched learning off keeps the engine's own
    confidence."""
    params = (
        AlignmentParams().with_changes({"aligner": "turns"})
        if vectors_kind == "word2vec"
        else load_params(new_document_defaults())
    )
    assert params.vectors.kind == vectors_kind
    for learns in (True, False):
        project, lead, documents = gold_project(1)
        project.settings = {"learned_decision": learns}
        project.save(update_fields=["settings"])
        parameter_set = parameter_set_get_or_create(
            project=project, name="turns", params=params.to_dict(), engine_version="test"
        )
        job_id = start(lead, project, parameter_set, documents)

        pre_align_run(job_id=job_id)

        assert Job.objects.get(pk=job_id).status == Job.Status.SUCCEEDED
        stored = WordVectors.objects.get(project=project, origin=ORIGIN_OF_KIND[vectors_kind])
        vectors = vectors_load(vectors_id=stored.pk)
        meeting = document_meeting(documents[0])
        prior = prior_for_source(documents[0].source, params)
        fold = prior_fold(meeting_of_source(documents[0].source), meeting_ids())
        assert prior is load_prior(fold, vectors_kind)
        calibrated = align_and_decide(meeting, params, vectors, prior)
        own = align_meeting(meeting, params, vectors)
        assert not np.allclose(calibrated.confidence, own.confidence)
        expected = calibrated if learns else own
        stored = PreAlignment.objects.get(document=documents[0], parameter_set=parameter_set)
        assert stored.labels == expected.labels.tolist()
        assert np.allclose(stored.confidences, expected.confidence)
        assert stored.run_correlation == (prior.run_correlation if learns else None)
        assert stored.calibration == (
            PreAlignment.Calibration.PRIOR if learns else PreAlignment.Calibration.NONE
        )


@pytest.mark.django_db
def test_a_parameter_sets_learned_decision_calibrates_and_the_pre_alignment_says_so():
    """The decision a tuning run fitted on the project's gold goes before the shipped prior,
    and the pre-alignment records which calibrated it, which is what the lead's estimates of
    the residual error are worth."""
    project, lead, documents = gold_project(1)
    params = AlignmentParams().with_changes({"aligner": "turns", "scoring.method": "tfidf"})
    decision = fit_learned_decision(load_public_meetings(FIVE_GOLD_MEETINGS), params, None)
    parameter_set = parameter_set_get_or_create(
        project=project,
        name="learned",
        params=params.to_dict(),
        engine_version="test",
        learned=json.loads(json.dumps(decision.as_dict())),
    )

    pre_align_run(job_id=start(lead, project, parameter_set, documents))

    stored = PreAlignment.objects.get(document=documents[0], parameter_set=parameter_set)
    expected = align_and_decide(document_meeting(documents[0]), params, None, decision)
    assert np.allclose(stored.confidences, expected.confidence)
    assert stored.calibration == PreAlignment.Calibration.LEARNED
    assert stored.run_correlation == decision.run_correlation


@pytest.mark.django_db
def test_a_prior_is_taken_for_the_vectors_it_was_fitted_on_only():
    """What both the pre-alignment job and a tuning run's learned-verdict line go by."""
    project = Project.objects.create(name="priors")
    lexical = load_params(new_document_defaults())
    trained = AlignmentParams().with_changes({"aligner": "turns"})
    origin = WordVectors.Origin
    cases = [
        (lexical, origin.LEXICAL, True),
        (trained, origin.TRAINED, True),
        (lexical, origin.TRAINED, False),
        (trained, origin.LEXICAL, False),
        (lexical, origin.UPLOADED, False),
        (trained, origin.SERVER_FILE, False),
        (AlignmentParams.of("diagonal"), origin.TRAINED, False),
    ]
    for params, vectors_origin, expected in cases:
        vectors = make_word_vectors(project, vectors_origin)
        assert takes_prior(params, vectors, project) is expected, (params.aligner, vectors_origin)
    assert not takes_prior(lexical, None, project)
    assert not takes_prior(lexical, make_word_vectors(project, origin.LEXICAL), None)
    project.settings = {"learned_decision": False}
    assert not takes_prior(lexical, make_word_vectors(project, origin.LEXICAL), project)
