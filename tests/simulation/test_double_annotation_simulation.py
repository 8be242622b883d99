"""The simulation with double annotation on real public_meetings meetings and a real worker:
two annotators per document who overlook mistakes independently, the lead adjudicating their
disagreements, and the agreement reported for the iteration."""

import pytest

from backend.alignments.models import Annotation
from backend.curation.models import Gold
from backend.curation.public_meetings import load_public_meetings, source_of
from backend.iterations.models import Iteration
from backend.simulation.annotator import reachable_gold
from backend.simulation.bootstrap import Simulation
from workers.align.annotation.agreement import CodedDocument, agreement

SMALL_MEETINGS = ["686239f0", "0b9ec6f0", "2f3f95e2"]
JOB_TIMEOUT_SECONDS = 600


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_doubly_annotated_documents_are_adjudicated_and_their_agreement_reported(
    celery_worker_process,
):
    pool = [meeting.id for meeting in load_public_meetings(SMALL_MEETINGS)]
    simulation = Simulation(
        sizes=[3],
        seed=5,
        job_timeout=JOB_TIMEOUT_SECONDS,
        final_tuning=False,
        pool=pool,
        double_share=1.0,
        overlook=0.3,
        say=lambda _: None,
    )

    (outcome,) = simulation.run()

    iteration = Iteration.objects.get(project=simulation.project)
    assert iteration.closed_at is not None
    coded, adjudicated = [], 0
    for meeting_id in outcome.documents:
        document = iteration.documents.get(source=source_of(meeting_id))
        submissions = list(
            Annotation.objects.filter(document=document, submitted_at__isnull=False).order_by(
                "annotator__username"
            )
        )
        assert len(submissions) == 2
        assert document.assignees.count() == 2
        first, second = (submission.assignments for submission in submissions)
        gold = Gold.objects.get(document=document)
        if first != second:
            adjudicated += 1
            assert gold.rule == "adjudicated"
            assert gold.labels == reachable_gold(simulation.meetings[meeting_id].reference)
        else:
            assert gold.rule == "agreed"
        words = list(document.turns.order_by("position").values_list("word_count", flat=True))
        coded.append(
            CodedDocument({s.annotator.username: s.assignments for s in submissions}, words)
        )
    assert adjudicated >= 1  # a 30 % chance of overlooking each mistake makes them differ

    report = outcome.as_dict()["agreement"]
    expected = agreement(coded).overall
    assert report["documents"] == 3
    assert report["adjudicated"] == adjudicated
    assert report["overall"]["turn_agreement"] == pytest.approx(expected.turn_agreement)
    assert report["overall"]["alpha"] == pytest.approx(expected.alpha)
    assert report["overall"]["turn_agreement"] < 100.0
    assert {row["username"] for row in report["against_gold"]} <= {
        user.username for user in simulation.annotators
    }
    assert report["against_gold"]
