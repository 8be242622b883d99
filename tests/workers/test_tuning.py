"""Tuning runs through real worker processes: the chord of slices per stage gives the same
ranking as the engine's in-process successive halving, by the run's objective (the share of
gold turns aligned right unless the run asks for another)."""

import pytest

from backend.alignments.models import Annotation
from backend.documents.selectors import document_meeting
from backend.jobs.models import Job
from backend.tuning.models import TuningCandidate, TuningRun, TuningSlice
from backend.tuning.services import tuning_candidate_parameter_set, tuning_start
from backend.vectors.services import vectors_load
from tests.workers.conftest import gold_project, wait_for_job
from workers.align import tune
from workers.align.params import AlignmentParams

SMALL_GRID = {
    "aligner": ["dp"],
    "scoring__normalisation": ["none", "rows"],
    "power": [1.0, 2.0, 4.0],
    "min_words": [0, 4],
}
TWO_ROUNDS = [{"documents": 2, "keep": 0.25}, {"documents": 4, "keep": 0.0}]


@pytest.mark.worker
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_distributed_run_ranks_as_the_engines_successive_halving(celery_worker_process):
    project, lead, documents = gold_project(4)

    run = tuning_start(
        actor=lead, project=project, gold_documents=documents, grid=SMALL_GRID, stages=TWO_ROUNDS
    )
    job = wait_for_job(run.job_id)

    assert job.status == Job.Status.SUCCEEDED, job.error
    run.refresh_from_db()
    gold = [document_meeting(d, reference=Annotation.objects.get(document=d)) for d in documents]
    settings = tune.expand_grid(AlignmentParams(), SMALL_GRID)
    expected = tune.successive_halving(
        gold,
        settings,
        vectors_load(vectors_id=run.word_vectors_id),
        [tune.Stage(2, 0.25), tune.Stage(4, 0.0)],
        kind="turns",
    )
    best = run.best
    assert run.ranked_by == "turns"
    assert best.rank == 1
    assert best.documents_evaluated == 4
    assert best.objective == pytest.approx(tune.objective(expected[0].summary, "turns"))
    assert AlignmentParams.from_dict(best.params) == expected[0].params or (
        tune.objective(expected[0].summary, "turns") == tune.objective(expected[1].summary, "turns")
    )
    assert best.objective == pytest.approx(best.segment_accuracy)
    assert job.result["params"] == best.params
    assert job.result["ranked_by"] == "turns"
    finalists = TuningCandidate.objects.filter(run=run, documents_evaluated=4)
    assert finalists.count() == len(expected) == 3  # ceil(0.25 * 12)
    assert sorted(finalists.values_list("objective", flat=True), reverse=True) == pytest.approx(
        [tune.objective(result.summary, "turns") for result in expected]
    )
    assert sorted(TuningCandidate.objects.filter(run=run).values_list("rank", flat=True)) == list(
        range(1, 13)
    )
    assert TuningSlice.objects.filter(run=run, results__isnull=True).count() == 0
    assert job.progress == 1.0

    parameter_set = tuning_candidate_parameter_set(actor=lead, candidate=best)
    assert parameter_set.params == best.params
    assert tuning_candidate_parameter_set(actor=lead, candidate=best).pk == parameter_set.pk
    assert TuningRun.objects.get(pk=run.pk).status == Job.Status.SUCCEEDED
