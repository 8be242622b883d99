"""A short bootstrap simulation on real public_meetings meetings, every job on a real worker:
two iterations, the second pre-aligned with what tuning on the first one's gold proposed, or
with the diagonal kept when no tuned setting beat it on that gold; and one iteration of a loop
started, as a new project starts, from the shipped defaults."""

import math

import pytest
from rest_framework.test import APIClient

from backend.alignments.models import Annotation, PreAlignment
from backend.alignments.selectors import turns_read
from backend.curation.public_meetings import source_of
from backend.iterations.models import AccuracyRecord, Iteration, StartingParameters
from backend.simulation.annotator import reachable_gold
from backend.simulation.bootstrap import Simulation
from backend.simulation.review import AUTO
from workers.align.annotation.review import (
    DEFAULT_RESIDUAL_ERROR_TARGET,
    threshold_for_residual_error,
)
from workers.align.corpus import load_public_meetings, meeting_ids
from workers.align.folds import new_document_defaults
from workers.align.learning.prior import prior_for
from workers.align.params import AlignmentParams, load_params
from workers.align.pipeline import align_and_decide, corpus_vectors

SMALL_MEETINGS = ["686239f0", "0b9ec6f0", "2f3f95e2"]
SPOT_CHECK = 0.05
JOB_TIMEOUT_SECONDS = 600


@pytest.mark.worker
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_two_iterations_tune_on_earlier_gold_only_and_record_what_annotators_kept(
    celery_worker_process,
):
    pool = [meeting.id for meeting in load_public_meetings(SMALL_MEETINGS)]
    simulation = Simulation(
        sizes=[2, 1], seed=3, job_timeout=JOB_TIMEOUT_SECONDS, pool=pool, say=lambda _: None
    )

    outcomes = simulation.run()

    first, second = Iteration.objects.filter(project=simulation.project).order_by("number")
    assert first.parameters["params"]["aligner"] == "diagonal"
    first_batch = {d.pk for d in first.documents.all()}
    assert set(first.tuning_run.gold_document_ids) == first_batch
    # Two gold documents fit no learned decision: the turn path's pre-alignments get the
    # shipped prior calibration instead, and the run says so.
    assert first.tuning_run.learning_refusal == "too_few_documents"
    assert "get the shipped prior calibration" in first.tuning_run.learning_note
    # Tuning on the first batch's gold proposes its best setting whose gain over the diagonal
    # in use clears its bootstrap interval over the documents; the second iteration is
    # pre-aligned with what was promoted, or kept.
    run = first.tuning_run
    incumbent = run.incumbent_candidate
    assert AlignmentParams.from_dict(incumbent.params).aligner == "diagonal"
    assert incumbent.documents_evaluated == len(first_batch)
    challengers = run.candidates.filter(is_incumbent=False, documents_evaluated=len(first_batch))
    best_challenger = max(challengers.values_list("objective", flat=True))
    clearing = [c.rank for c in challengers if c.gain_low > 0]
    if run.best is None:
        assert not clearing
        assert run.proposal_reason == (
            "incumbent_best" if best_challenger <= incumbent.objective else "within_uncertainty"
        )
        assert first.promoted_parameter_set is None
        assert second.parameter_set == first.parameter_set
    else:
        assert run.best.rank == min(clearing)
        assert run.best.objective > incumbent.objective
        assert second.parameter_set == first.promoted_parameter_set
        assert second.parameter_set.params == run.best.params
    assert set(second.tuning_run.gold_document_ids) == first_batch | {
        d.pk for d in second.documents.all()
    }
    simulation.project.refresh_from_db()
    assert simulation.project.promoted_parameter_set == second.promoted_parameter_set

    for outcome, iteration in zip(outcomes, (first, second), strict=True):
        assert outcome.parameters == iteration.parameters
        for meeting_id, accuracy in zip(
            outcome.documents, outcome.human_turn_accuracy, strict=True
        ):
            record = AccuracyRecord.objects.get(
                iteration=iteration, document__source=source_of(meeting_id)
            )
            shown = PreAlignment.objects.get(
                document=record.document, parameter_set=iteration.parameter_set
            ).labels
            gold = reachable_gold(simulation.meetings[meeting_id].reference)
            kept = sum(a == b for a, b in zip(shown, gold, strict=True))
            assert record.gold_labels == gold
            assert accuracy == pytest.approx(100 * kept / len(gold))

    lead = APIClient()
    lead.force_login(simulation.lead)
    base = f"/api/v1/projects/{simulation.project.pk}/dashboard"
    accuracy = lead.get(f"{base}/accuracy/").json()["iterations"]
    assert [len(row["documents"]) for row in accuracy] == [2, 1]
    assert accuracy[0]["summary"]["human_turn_accuracy"]["mean"] == pytest.approx(
        sum(outcomes[0].human_turn_accuracy) / 2
    )
    for row, outcome in zip(accuracy, outcomes, strict=True):
        assert outcome.calibration == {
            "turns": row["reliability"]["turns"],
            "expected_calibration_error": row["reliability"]["expected_calibration_error"],
            "auroc": row["reliability"]["auroc"],
        }
        assert outcome.calibration["turns"] == sum(
            len(simulation.meetings[meeting_id].reference) for meeting_id in outcome.documents
        )
    corpus = lead.get(f"{base}/corpus/").json()
    assert [row["gold_documents"] for row in corpus["iterations"]] == [2, 3]
    candidates = lead.get(f"{base}/tuning/", {"ordering": "segment_accuracy"}).json()
    assert candidates["run"]["id"] == second.tuning_run_id
    scores = [row["segment_accuracy"] for row in candidates["results"]]
    assert scores == sorted(scores, reverse=True)
    assert lead.get(f"{base}/jobs/").json()["jobs"] == []


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_loop_started_from_the_shipped_defaults_reviews_under_the_lexical_prior(
    celery_worker_process,
):
    """A new project's first batch: the shipped lexical defaults pre-align it, the lexical
    prior calibrates its confidence, review under `auto` is planned on that confidence, and
    the annotator spot-checks what the review left unread."""
    (meeting,) = load_public_meetings(SMALL_MEETINGS[:1])
    simulation = Simulation(
        sizes=[1],
        seed=1,
        job_timeout=JOB_TIMEOUT_SECONDS,
        pool=[meeting.id],
        final_tuning=False,
        review_threshold=AUTO,
        review_spot_check=SPOT_CHECK,
        starting=StartingParameters.SHIPPED,
        say=lambda _: None,
    )

    (outcome,) = simulation.run()

    (iteration,) = Iteration.objects.filter(project=simulation.project)
    params = load_params(new_document_defaults())
    assert iteration.parameters["params"] == params.to_dict()
    stored = PreAlignment.objects.get(
        document__source=source_of(meeting.id), parameter_set=iteration.parameter_set
    )
    expected = align_and_decide(
        meeting,
        params,
        corpus_vectors([meeting], params.vectors),
        prior_for(meeting.id, meeting_ids(), "lexical"),
    )
    assert stored.labels == expected.labels.tolist()
    assert stored.confidences == pytest.approx(expected.confidence.tolist())
    review = outcome.review
    assert review["review_threshold"] == pytest.approx(
        threshold_for_residual_error([expected.confidence], DEFAULT_RESIDUAL_ERROR_TARGET)
    )
    # This meeting's reference is all corrected: both references give the same figures.
    assert review["residual_error_corrected"] == review["residual_error"]
    assert review["estimated_residual_error_corrected"] == pytest.approx(
        review["estimated_residual_error"]
    )
    # The annotator reviewed through the editor's services: the app holds the turns read, the
    # spot check its service drew, and the rest accepted unread; its own estimates of what the
    # review left are the simulation's.
    annotation = Annotation.objects.get(document__source=source_of(meeting.id))
    drawn = annotation.spot_check["drawn"]
    assert len(drawn) == math.ceil(SPOT_CHECK * len(annotation.spot_check["pool"]))
    assert all(annotation.reviewed[turn] for turn in drawn)
    assert sum(annotation.accepted_without_review) == len(annotation.assignments) - sum(
        turns_read(annotation)
    )
    assert review["reviewed_share"] == pytest.approx(
        sum(turns_read(annotation)) / len(annotation.assignments)
    )
    assert review["app_estimated_residual_error_after_review"] == pytest.approx(
        review["estimated_residual_error_after_review"]
    )
    assert review["app_estimated_residual_error_spot_checked"] == pytest.approx(
        review["estimated_residual_error_spot_checked"]
    )
