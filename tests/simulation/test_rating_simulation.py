"""A rating study with simulated raters on real public_meetings meetings, the pre-alignment
on a real worker: raters answer from the corpus's reference, the shipped defaults align fold B
only, and the results count every rating."""

import pytest

from backend.alignments.models import PreAlignment
from backend.curation.public_meetings import load_public_meetings, meeting_ids
from backend.ratings.models import Rating
from backend.simulation.rating import RatingSimulation, simulated_answer
from workers.align.folds import folds

JOB_TIMEOUT_SECONDS = 600


def test_simulated_answers():
    assert simulated_answer([3, 4], [3, 4]) == "yes"
    assert simulated_answer([3, 4], [4, 5]) == "partly"
    assert simulated_answer([3], [3, 4]) == "partly"
    assert simulated_answer([3], [5]) == "no"
    assert simulated_answer([3], []) == "no"


@pytest.mark.worker
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_simulated_study_rates_the_shipped_defaults_pairs_of_fold_b(celery_worker_process):
    simulation = RatingSimulation(
        sample_size=5,
        controls=3,
        raters=2,
        raters_per_pair=2,
        gold_meetings=1,
        automatic_meetings=1,
        seed=5,
        job_timeout=JOB_TIMEOUT_SECONDS,
        say=lambda _: None,
    )

    results = simulation.run()

    _, fold_b = folds(meeting_ids())
    pre_alignment = PreAlignment.objects.get(document__project=simulation.project)
    assert pre_alignment.document.source.endswith(fold_b[0])
    assert pre_alignment.parameter_set.name == "shipped defaults"
    assert results["ratings"] == results["assignments"] == 2 * (5 + 3)
    assert [b["ratings"] for b in results["bins"]] == [2] * 5
    assert [row["yes_share"] for row in results["controls"]] == [1.0, 1.0]
    reference = load_public_meetings([fold_b[0]])[0].reference
    for rating in Rating.objects.select_related("assignment__item").filter(
        assignment__item__origin="automatic"
    ):
        item = rating.assignment.item
        turns = [turn for turn, label in enumerate(reference) if label == item.segment_position]
        assert (rating.answer == "yes") == (item.turn_positions == turns)
        assert item.confidence == pytest.approx(
            min(pre_alignment.confidences[turn] for turn in item.turn_positions), abs=1e-6
        )
