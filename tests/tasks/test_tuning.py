"""Tuning runs through real worker processes: the chord of slices per stage gives the same
ranking as the engine's in-process successive halving, by the run's objective (the share of
gold turns aligned right unless the run asks for another)."""

import functools
import json
from dataclasses import replace

import pytest
from rest_framework.test import APIClient

from backend.alignments.models import Annotation, ParameterSet, PreAlignment
from backend.alignments.services.pre_alignments import (
    ENGINE_VERSION,
    parameter_set_get_or_create,
)
from backend.documents.selectors import document_meeting
from backend.iterations.models import Iteration
from backend.jobs.models import Job
from backend.projects.services import parameter_set_promote
from backend.tuning.models import TuningCandidate, TuningRun, TuningSlice
from backend.tuning.selectors import parameters_in_use
from backend.tuning.services import tuning_candidate_parameter_set, tuning_start
from backend.vectors.services import vectors_load
from tests.openapi import assert_matches_schema
from tests.tasks.conftest import FIVE_GOLD_MEETINGS, gold_project, wait_for_job
from workers.align.corpus import load_public_meetings
from workers.align.document_model import Meeting
from workers.align.learning.turn_decision import (
    AUROC_FLOOR,
    MIN_GOLD_DOCUMENTS,
    LearnedDecision,
    held_out_auroc,
)
from workers.align.params import AlignmentParams
from workers.align.pipeline import fit_learned_decision, turn_evidence
from workers.align.tuning import tune

SMALL_GRID = {
    "aligner": ["dp"],
    "dp.normalisation": ["none", "rows"],
    "dp.power": [1.0, 2.0, 4.0],
    "abstention.min_words": [0, 4],
}
TWO_ROUNDS = [{"documents": 2, "keep": 0.25}, {"documents": 4, "keep": 0.0}]


@functools.cache
def _fitted(gold: tuple[Meeting, ...], params_json: str) -> LearnedDecision:
    return fit_learned_decision(gold, AlignmentParams.from_dict(json.loads(params_json)), None)


def expected_decision(gold: list[Meeting], params: AlignmentParams) -> LearnedDecision:
    """`fit_learned_decision(gold, params, None)`, what a run's worker must have stored, fitted
    once a process for equal gold and parameters. The learning and the recalibration tests fit
    the same five meetings on the same winning parameters, and the engine's evidence for them
    takes seconds. Equal gold is every field but the meeting id (`document:<pk>`, new in each
    test), which the fit does not read: were that wrong, the tests' comparisons with the
    worker's own fit would fail, not pass."""
    anonymous = tuple(replace(meeting, id="") for meeting in gold)
    return _fitted(anonymous, json.dumps(params.to_dict(), sort_keys=True))


def tune_on_five_gold(lead, project, documents) -> tuple[TuningRun, Job]:
    """A tf-idf turn-path grid of two settings on five gold documents, run to its end: no
    word vectors to train, and a learned decision fitted from the fewest documents allowed."""
    grid = {"aligner": ["turns"], "scoring.method": ["tfidf"], "turns.match_offset": [-0.1, 0.0]}
    run = tuning_start(
        actor=lead,
        project=project,
        gold_documents=documents,
        grid=grid,
        stages=[{"documents": 5, "keep": 0.0}],
    )
    job = wait_for_job(run.job_id, timeout=240)
    assert job.status == Job.Status.SUCCEEDED, job.error
    run.refresh_from_db()
    return run, job


def pre_align_through_the_api(client, document, parameter_set) -> PreAlignment:
    """What a lead's POST of a pre-alignment with this parameter set stores, once its job
    has run on the worker."""
    started = client.post(
        f"/api/v1/projects/{document.project_id}/pre-alignments/",
        {"parameter_set": parameter_set.pk, "documents": [document.pk]},
        format="json",
    )
    assert started.status_code == 202, started.json()
    assert wait_for_job(started.json()["id"]).status == Job.Status.SUCCEEDED
    return PreAlignment.objects.get(document=document, parameter_set=parameter_set)


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
    client = APIClient()
    client.force_login(lead)
    assert_matches_schema(client.get(f"/api/v1/projects/{project.pk}/jobs/{job.pk}/"))
    assert_matches_schema(client.get(f"/api/v1/projects/{project.pk}/tuning-runs/{run.pk}/"))
    assert job.result["ranked_by"] == "turns"
    # The grid is halved as the engine halves it; the incumbent (the diagonal, in use) goes
    # through both stages besides, and is beaten.
    finalists = TuningCandidate.objects.filter(run=run, documents_evaluated=4, is_incumbent=False)
    assert finalists.count() == len(expected) == 3  # ceil(0.25 * 12)
    assert sorted(finalists.values_list("objective", flat=True), reverse=True) == pytest.approx(
        [tune.objective(result.summary, "turns") for result in expected]
    )
    incumbent = TuningCandidate.objects.get(run=run, is_incumbent=True)
    assert (incumbent.index, incumbent.documents_evaluated) == (12, 4)
    assert AlignmentParams.from_dict(incumbent.params).aligner == "diagonal"
    assert incumbent.objective < best.objective
    assert job.result["incumbent"] == {
        "name": "diagonal baseline",
        "objective": incumbent.objective,
    }
    assert sorted(TuningCandidate.objects.filter(run=run).values_list("rank", flat=True)) == list(
        range(1, 14)
    )
    assert TuningSlice.objects.filter(run=run, results__isnull=True).count() == 0
    assert job.progress == 1.0

    parameter_set = tuning_candidate_parameter_set(actor=lead, candidate=best)
    assert parameter_set.params == best.params
    assert tuning_candidate_parameter_set(actor=lead, candidate=best).pk == parameter_set.pk
    assert TuningRun.objects.get(pk=run.pk).status == Job.Status.SUCCEEDED


ONE_ROUND = [{"documents": 4, "keep": 0.0}]


@pytest.mark.worker
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_run_that_beats_nothing_in_use_proposes_nothing(celery_worker_process):
    """Promote a run's best, tune again on the same gold: the parameters in use are one of the
    grid's settings, marked in place, and no other setting beats them, so the run proposes
    nothing and promoting 'the proposal' is refused with the reason."""
    project, lead, documents = gold_project(4)
    first = tuning_start(
        actor=lead, project=project, gold_documents=documents, grid=SMALL_GRID, stages=ONE_ROUND
    )
    assert wait_for_job(first.job_id).status == Job.Status.SUCCEEDED
    first.refresh_from_db()
    in_use = tuning_candidate_parameter_set(actor=lead, candidate=first.best)
    parameter_set_promote(actor=lead, project=project, parameter_set=in_use)

    second = tuning_start(
        actor=lead, project=project, gold_documents=documents, grid=SMALL_GRID, stages=ONE_ROUND
    )
    job = wait_for_job(second.job_id)

    assert job.status == Job.Status.SUCCEEDED, job.error
    second.refresh_from_db()
    incumbent = second.incumbent_candidate
    assert second.candidates.count() == second.settings_count == 12
    assert (incumbent.index, incumbent.params) == (first.best.index, first.best.params)
    assert second.incumbent_name == in_use.name
    assert second.best is None
    assert job.result["best_candidate"] is None
    assert f"beats {in_use.name!r}" in job.message
    assert second.proposal_reason == "incumbent_best"
    assert second.proposal_note.startswith(f"No candidate beats {in_use.name!r}, in use")
    assert incumbent.gain is None
    assert all(candidate.gain <= 0 for candidate in second.candidates.exclude(pk=incumbent.pk))
    iteration = Iteration.objects.create(
        project=project, number=1, closed_at=second.finished_at, tuning_run=second
    )
    client = APIClient()
    client.force_login(lead)
    promote = f"/api/v1/projects/{project.pk}/iterations/{iteration.pk}/promote/"
    refused = client.post(promote, {}, format="json")
    assert refused.status_code == 409
    assert "proposes nothing. No candidate beats" in refused.json()["detail"]
    runner_up = second.candidates.get(rank=2)
    anyway = client.post(promote, {"candidate": runner_up.pk}, format="json")
    assert anyway.status_code == 200, anyway.json()
    assert_matches_schema(client.get(f"/api/v1/projects/{project.pk}/iterations/{iteration.pk}/"))


@pytest.mark.worker
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_turn_path_run_learns_from_its_gold_and_pre_alignment_applies_it(
    celery_worker_process,
):
    """Five gold documents, the fewest a decision is fitted from; tf-idf, so that no word
    vectors are trained and the fit's held-out AUROC is known to clear the floor."""
    project, lead, documents = gold_project(FIVE_GOLD_MEETINGS)
    assert len(documents) == MIN_GOLD_DOCUMENTS
    run, job = tune_on_five_gold(lead, project, documents)
    # The proposal learns: it beats the diagonal in use on every document.
    best = run.best
    assert best is not None
    assert best.gain_low > 0
    params = AlignmentParams.from_dict(best.params)
    gold = [document_meeting(d, reference=Annotation.objects.get(document=d)) for d in documents]
    expected = expected_decision(gold, params)
    assert held_out_auroc(expected) >= AUROC_FLOOR
    assert best.learned == json.loads(json.dumps(expected.as_dict()))
    assert job.result["learned"] == json.loads(json.dumps(expected.summary()))
    assert job.result["learning_refusal"] is None
    assert (run.learning_refusal, run.learning_note) == ("", "")
    assert TuningCandidate.objects.filter(run=run, learned__isnull=False).count() == 1
    client = APIClient()
    client.force_login(lead)
    iteration = Iteration.objects.create(
        project=project, number=1, closed_at=run.finished_at, tuning_run=run
    )
    shown = client.get(f"/api/v1/projects/{project.pk}/iterations/{iteration.pk}/")
    assert_matches_schema(shown)
    assert shown.json()["tuning"]["learned"] == job.result["learned"]
    assert "second_opinions_kept" in shown.json()["tuning"]["learned"]

    parameter_set = tuning_candidate_parameter_set(actor=lead, candidate=best)
    assert parameter_set.learned == best.learned
    stored = pre_align_through_the_api(client, documents[0], parameter_set)
    evidence = turn_evidence(document_meeting(documents[0]), params, None)[1]
    labels, probability = LearnedDecision.from_dict(parameter_set.learned).decide(evidence)
    assert stored.labels == labels.tolist()
    assert stored.confidences == pytest.approx(probability.tolist())

    # A decision an older engine fitted (before the state margin) is refused by name, and the
    # job stores nothing rather than a pre-alignment the decision was not made for.
    older = {**parameter_set.learned}
    older["features"] = [f for f in older["features"] if f != "state_margin_per_word"]
    stale = ParameterSet.objects.create(
        project=project, name="fitted by an older engine", params=best.params, learned=older
    )
    refused = client.post(
        f"/api/v1/projects/{project.pk}/pre-alignments/",
        {"parameter_set": stale.pk, "documents": [documents[1].pk]},
        format="json",
    )
    assert refused.status_code == 202, refused.json()
    failed = wait_for_job(refused.json()["id"])
    assert failed.status == Job.Status.FAILED
    assert "missing: state_margin_per_word" in failed.error
    assert "tuning run" in failed.error
    assert not PreAlignment.objects.filter(parameter_set=stale).exists()


@pytest.mark.worker
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_run_that_keeps_the_parameters_in_use_proposes_them_recalibrated(
    celery_worker_process,
):
    """Five gold documents, enough for a learned decision; the parameters in use were tuned
    on less gold and carry none, as a loop's second iteration leaves them, and no setting of
    the grid beats them. The run fits the decision for them and proposes them recalibrated;
    nothing changes until a lead promotes that, and then pre-alignments apply it."""
    project, lead, documents = gold_project(FIVE_GOLD_MEETINGS)
    in_use_params = AlignmentParams().with_changes(
        {"aligner": "turns", "scoring.method": "tfidf", "turns.match_offset": -0.1}
    )
    in_use = parameter_set_get_or_create(
        project=project,
        name="tuned on less gold",
        params=in_use_params.to_dict(),
        engine_version=ENGINE_VERSION,
        actor=lead,
    )
    parameter_set_promote(actor=lead, project=project, parameter_set=in_use)

    run, job = tune_on_five_gold(lead, project, documents)

    incumbent = run.incumbent_candidate
    challenger = run.candidates.get(is_incumbent=False)
    assert incumbent.params == in_use.params
    assert challenger.gain < 0
    assert run.proposal_reason == "incumbent_best"
    assert run.best == incumbent
    assert run.proposal_recalibrates
    gold = [document_meeting(d, reference=Annotation.objects.get(document=d)) for d in documents]
    expected = expected_decision(gold, in_use_params)
    assert held_out_auroc(expected) >= AUROC_FLOOR
    assert incumbent.learned == json.loads(json.dumps(expected.as_dict()))
    assert job.result["learned"] == json.loads(json.dumps(expected.summary()))
    assert challenger.learned == incumbent.learned
    assert run.proposal_note.startswith("No candidate beats 'tuned on less gold', in use")
    assert (
        "Proposed instead: the same parameters, calibration refitted on 5 gold documents (it "
        "has none: its confidence is the engine's own, not a probability)"
    ) in run.proposal_note
    assert job.result["best_candidate"] == incumbent.pk
    assert job.result["proposal"]["recalibrates"] is True
    assert job.message.startswith("'tuned on less gold' recalibrated: no setting of 2 beats it")
    project.refresh_from_db()
    assert project.promoted_parameter_set == in_use
    assert in_use.learned is None

    client = APIClient()
    client.force_login(lead)
    iteration = Iteration.objects.create(
        project=project, number=1, closed_at=run.finished_at, tuning_run=run
    )
    page = f"/api/v1/projects/{project.pk}/iterations/{iteration.pk}/"
    before = client.get(page)
    assert_matches_schema(before)
    tuning = before.json()["tuning"]
    assert (tuning["proposal"]["id"], tuning["proposal_recalibrates"]) == (incumbent.pk, True)
    assert tuning["promoted_candidate"] is None
    assert tuning["proposal_note"] == run.proposal_note

    promoted = client.post(f"{page}promote/", {}, format="json")
    assert promoted.status_code == 200, promoted.json()
    recalibrated = ParameterSet.objects.get(pk=promoted.json()["promoted_parameter_set"])
    assert recalibrated.name == f"tuning run {run.pk}, rank 1, recalibrated"
    assert (recalibrated.params, recalibrated.learned) == (in_use.params, incumbent.learned)
    assert client.get(page).json()["tuning"]["promoted_candidate"] == incumbent.pk
    project.refresh_from_db()
    assert parameters_in_use(project=project) == recalibrated
    stored = pre_align_through_the_api(client, documents[0], recalibrated)
    evidence = turn_evidence(document_meeting(documents[0]), in_use_params, None)[1]
    labels, probability = expected.decide(evidence)
    assert stored.labels == labels.tolist()
    assert stored.confidences == pytest.approx(probability.tolist())


@pytest.mark.worker
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_project_that_switches_the_learned_decision_off_tunes_without_it(
    celery_worker_process,
):
    project, lead, documents = gold_project(2)
    client = APIClient()
    client.force_login(lead)
    settings_url = f"/api/v1/projects/{project.pk}/"
    refused = client.patch(settings_url, {"settings": {"learned_decision": "maybe"}}, format="json")
    assert refused.status_code == 400
    assert "learned_decision" in str(refused.json())
    switched = client.patch(settings_url, {"settings": {"learned_decision": False}}, format="json")
    assert switched.status_code == 200, switched.json()
    assert switched.json()["settings"]["learned_decision"] is False

    run = tuning_start(
        actor=lead,
        project=project,
        gold_documents=documents,
        grid={"aligner": ["turns"], "turns.match_offset": [0.2, 0.3]},
        stages=[{"documents": 2, "keep": 0.0}],
    )
    job = wait_for_job(run.job_id)

    assert job.status == Job.Status.SUCCEEDED, job.error
    assert job.result["learned"] is None
    assert not TuningCandidate.objects.filter(run=run, learned__isnull=False).exists()
    best = TuningCandidate.objects.filter(run=run, is_incumbent=False).order_by("rank").first()
    assert tuning_candidate_parameter_set(actor=lead, candidate=best).learned is None


@pytest.mark.worker
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_run_on_three_gold_documents_keeps_the_calibration_in_use_and_proposes_nothing(
    celery_worker_process,
):
    """The first tuning run of a project with three gold documents, as the issue met it: the
    parameters in use carry a calibration an earlier run fitted on five documents; the run
    fits none from three and says so, the calibration in use stays, and its best setting,
    ahead of the parameters in use by less than the documents' uncertainty, is not proposed."""
    project, lead, documents = gold_project(3)
    tfidf_turns = {"aligner": "turns", "scoring.method": "tfidf"}
    in_use_params = AlignmentParams().with_changes(
        {**tfidf_turns, "turns.match_offset": 0.0, "turns.unaligned_gain": 2.0}
    )
    earlier = fit_learned_decision(
        load_public_meetings(FIVE_GOLD_MEETINGS), in_use_params, None
    ).as_dict()
    in_use = parameter_set_get_or_create(
        project=project,
        name="tuned earlier",
        params=in_use_params.to_dict(),
        engine_version=ENGINE_VERSION,
        actor=lead,
        learned=json.loads(json.dumps(earlier)),
    )
    parameter_set_promote(actor=lead, project=project, parameter_set=in_use)
    grid = {
        "aligner": ["turns"],
        "scoring.method": ["tfidf"],
        "turns.match_offset": [-0.1, 0.0, 0.1],
        "turns.unaligned_gain": [2.0, 4.0, 8.0],
    }

    run = tuning_start(
        actor=lead,
        project=project,
        gold_documents=documents,
        grid=grid,
        stages=[{"documents": 3, "keep": 0.0}],
    )
    job = wait_for_job(run.job_id)

    assert job.status == Job.Status.SUCCEEDED, job.error
    run.refresh_from_db()
    incumbent = run.incumbent_candidate
    assert incumbent.params == in_use.params
    first = run.candidates.get(rank=1)
    assert not first.is_incumbent
    # Ahead on the gold as a whole, but not on every way three documents could have fallen.
    assert first.objective > incumbent.objective
    assert first.gain == pytest.approx(first.objective - incumbent.objective)
    assert first.gain_low < 0 < first.gain < first.gain_high
    assert not any(candidate.gain_low > 0 for candidate in run.candidates.exclude(pk=incumbent.pk))
    assert run.best is None
    assert (run.proposal_reason, run.proposal_ties) == ("within_uncertainty", 1)
    assert (
        f"The best candidate (rank 1) scores {first.gain:+.1f} points of the share of turns "
        f"aligned right against 'tuned earlier', in use ({first.gain_low:+.1f} to "
        f"{first.gain_high:+.1f} over the 3 gold documents, 95 % bootstrap interval)"
    ) in run.proposal_note
    assert "nothing is proposed" in run.proposal_note
    assert job.message.startswith("no proposal: no setting of 9 beats 'tuned earlier'")
    assert job.result["best_candidate"] is None
    assert job.result["proposal"]["reason"] == "within_uncertainty"

    # Nothing learned from three documents: the calibration in use stays, and goes with a set
    # promoted from the run all the same.
    assert job.result["learned"] is None
    assert run.learning_refusal == "too_few_documents"
    assert job.result["learning_refusal"] == {
        "code": "too_few_documents",
        "reason": run.learning_note,
    }
    assert "The gold holds 3 documents, fewer than the 5" in run.learning_note
    assert "Pre-alignments keep the calibration of 'tuned earlier', in use." in run.learning_note
    assert first.learned == in_use.learned
    assert tuning_candidate_parameter_set(actor=lead, candidate=first).learned == in_use.learned
    project.refresh_from_db()
    assert project.promoted_parameter_set == in_use

    client = APIClient()
    client.force_login(lead)
    detail = client.get(f"/api/v1/projects/{project.pk}/tuning-runs/{run.pk}/")
    assert_matches_schema(detail)
    shown = detail.json()
    assert shown["best"] is None
    assert (shown["proposal_reason"], shown["proposal_note"]) == (
        "within_uncertainty",
        run.proposal_note,
    )
    assert shown["learning_refusal"] == "too_few_documents"
    assert shown["candidates"][0]["gain_low"] == pytest.approx(first.gain_low)
    iteration = Iteration.objects.create(
        project=project, number=1, closed_at=run.finished_at, tuning_run=run
    )
    page = client.get(f"/api/v1/projects/{project.pk}/iterations/{iteration.pk}/")
    assert_matches_schema(page)
    assert page.json()["tuning"]["proposal_note"] == run.proposal_note
    assert page.json()["tuning"]["learning_note"] == run.learning_note
    refused = client.post(
        f"/api/v1/projects/{project.pk}/iterations/{iteration.pk}/promote/", {}, format="json"
    )
    assert refused.status_code == 409
    assert run.proposal_note in refused.json()["detail"]
