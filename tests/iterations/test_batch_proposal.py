"""Tandem's proposal of the next batch (GET iterations/proposal/): what each policy chooses
from what the project stores, and why it says it chose it. Roles are in
tests/projects/test_permission_matrix.py."""

import pytest

from backend.alignments.services.pre_alignments import (
    parameter_set_get_or_create,
    pre_alignment_record,
)
from backend.documents.models import Document
from backend.documents.services import document_store_parsed
from backend.iterations.services import iteration_close
from tests.domain import evenly
from tests.iterations.builders import annotating_iteration, submit_moved
from workers.align.document_model import Report, Segment, Transcript, Turn

TURNS = 8


def meeting_about(project, name: str, words: str, confidence: float | None = 0.5, assignees=()):
    """A document whose every turn says `words`, pre-aligned with `confidence` on each turn
    (no pre-alignment when None)."""
    document = Document.objects.create(project=project, name=name)
    report = Report(
        segments=tuple(Segment(f"s{i}", words, (words,), f"speaker {i}", i) for i in range(4)),
        source="report.txt",
    )
    transcript = Transcript(
        turns=tuple(Turn(f"t{i}", words, (words,), "S0", i, i + 1, i) for i in range(TURNS)),
        source="transcript.srt",
    )
    document_store_parsed(document=document, report=report, transcript=transcript)
    document.assignees.set(assignees)
    if confidence is not None:
        pre_alignment_record(
            document=document,
            parameter_set=parameter_set_get_or_create(
                project=project, name="engine", params={}, engine_version="test"
            ),
            labels=evenly(TURNS, 4),
            confidences=[confidence] * (TURNS - 1) + [min(confidence + 0.1, 1.0)],
            engine_version="test",
        )
    return document


def propose(world, **query):
    answer = world.client("lead").get(
        f"/api/v1/projects/{world.project.pk}/iterations/proposal/", query
    )
    assert answer.status_code == 200, answer.json()
    return answer.json()


@pytest.fixture
def fresh(world):
    """The world's own documents out of the way: candidates are the test's alone."""
    Document.objects.filter(project=world.project).delete()
    return world


def test_uncertainty_proposes_the_most_wrong_turns_expected_and_lists_what_it_cannot_rank(fresh):
    sure = meeting_about(fresh.project, "sure", "budget vote", confidence=0.9)
    unsure = meeting_about(fresh.project, "unsure", "budget vote", confidence=0.2)
    middling = meeting_about(fresh.project, "middling", "budget vote", confidence=0.6)
    meeting_about(fresh.project, "new", "budget vote", confidence=None)

    proposal = propose(fresh, policy="uncertainty", size=2)

    assert [document["id"] for document in proposal["documents"]] == [unsure.pk, middling.pk]
    expected = 7 * (1 - 0.2) + (1 - 0.3)
    mean_confidence = (7 * 0.2 + 0.3) / TURNS
    assert proposal["documents"][0]["score"] == pytest.approx(expected)
    assert proposal["documents"][0]["reason"] == (
        f"expected {expected:.0f} wrong turns of {TURNS} (mean confidence {mean_confidence:.2f})"
    )
    assert proposal["unranked"] == [
        {"id": proposal["unranked"][0]["id"], "name": "new", "reason": "no pre-alignment yet"}
    ]
    assert proposal["candidates"] == 4
    assert sure.pk not in {document["id"] for document in proposal["documents"]}


def test_diversity_proposes_first_what_is_least_like_the_gold(fresh):
    gold = meeting_about(fresh.project, "gold", "budget primitif vote", assignees=[fresh.annotator])
    iteration = annotating_iteration(fresh.project, [gold])
    submit_moved(fresh.annotator, gold, moved=0)
    iteration_close(actor=fresh.lead, iteration=iteration, tune=False)
    like_gold = meeting_about(fresh.project, "like the gold", "budget primitif adopté")
    unlike = meeting_about(fresh.project, "unlike", "écoles maternelles rentrée")

    proposal = propose(fresh, policy="diversity", size=2)

    assert proposal["gold_documents"] == 1
    assert [document["id"] for document in proposal["documents"]] == [unlike.pk, like_gold.pk]
    first, second = proposal["documents"]
    assert first["score"] < second["score"]
    assert first["reason"] == f"least similar to the gold so far: cosine {first['score']:.2f}"


def test_random_is_reproducible_by_its_seed_and_draws_one_when_not_given(fresh):
    for number in range(6):
        meeting_about(fresh.project, f"meeting {number}", "budget vote")

    drawn = propose(fresh, policy="random", size=3)
    again = propose(fresh, policy="random", size=3, seed=drawn["seed"])

    assert again["documents"] == drawn["documents"]
    assert len({document["id"] for document in drawn["documents"]}) == 3
    assert drawn["documents"][0]["reason"] == f"drawn at random (seed {drawn['seed']})"


def test_documents_already_in_an_iteration_are_never_proposed(world):
    proposal = propose(world, policy="random", size=10)

    in_iterations = set(
        Document.objects.filter(project=world.project, iteration__isnull=False).values_list(
            "pk", flat=True
        )
    )
    proposed = {document["id"] for document in proposal["documents"]}
    assert proposed
    assert not proposed & in_iterations
    assert proposal["candidates"] == len(proposed)


@pytest.mark.parametrize(
    "query", [{"policy": "cleverest", "size": 2}, {"policy": "random"}, {"size": 0}]
)
def test_an_unknown_policy_or_a_missing_size_is_refused(world, query):
    answer = world.client("lead").get(
        f"/api/v1/projects/{world.project.pk}/iterations/proposal/", query
    )

    assert answer.status_code == 400
