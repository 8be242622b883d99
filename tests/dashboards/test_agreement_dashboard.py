"""The agreement and annotator dashboards on documents two annotators corrected differently,
through the editor's and the adjudication's services."""

import pytest

from backend.curation.adjudication import adjudication_complete
from backend.documents.models import Document
from backend.projects.models import Membership, Role
from tests.domain import evenly, make_document, make_user
from tests.iterations.builders import annotating_iteration, submit_moved
from workers.align.annotation.agreement import MEASURES, CodedDocument, agreement

TURNS, SEGMENTS = 10, 4
PRE_ALIGNMENT = evenly(TURNS, SEGMENTS)  # 0 0 0 1 1 2 2 2 3 3


SECONDS = {"annotator": 60, "second": 30}
"""Each annotator's seconds per document."""


def submit(annotator, document, moved: int) -> list[int]:
    return submit_moved(annotator, document, moved, SECONDS[annotator.username]).assignments


@pytest.fixture
def doubly_annotated(world):
    second = make_user("second")
    Membership.objects.create(project=world.project, user=second, role=Role.ANNOTATOR)
    both = [world.annotator, second]
    a = make_document(world.project, name="a", assignees=both, pre_alignment=PRE_ALIGNMENT)
    b = make_document(world.project, name="b", assignees=both, pre_alignment=PRE_ALIGNMENT)
    single = make_document(
        world.project, name="single", assignees=[second], pre_alignment=PRE_ALIGNMENT
    )
    iteration = annotating_iteration(world.project, [a, b, single])
    labels = {
        "a": {world.annotator.pk: submit(world.annotator, a, 3), second.pk: submit(second, a, 5)},
        "b": {world.annotator.pk: submit(world.annotator, b, 4), second.pk: submit(second, b, 4)},
    }
    submit(second, single, 2)
    return iteration, second, labels


def get(world, chart: str):
    response = world.client("lead").get(f"/api/v1/projects/{world.project.pk}/dashboard/{chart}/")
    assert response.status_code == 200, response.json()
    return response.json()


def get_agreement(world):
    return get(world, "agreement")


def test_agreement_per_document_per_iteration_and_per_pair(world, doubly_annotated):
    iteration, second, labels = doubly_annotated

    data = get_agreement(world)

    assert data["measures"] == list(MEASURES)
    row = next(row for row in data["iterations"] if row["iteration"] == iteration.pk)
    documents = {document["name"]: document for document in row["documents"]}
    assert set(documents) == {"a", "b"}  # `single` has one annotator
    # a: 0001122333 against 0001133333 differ on turns 5 and 6; b: identical
    assert documents["a"]["turn_agreement"] == pytest.approx(80.0)
    assert documents["a"]["word_agreement"] == pytest.approx(80.0)
    assert documents["b"]["turn_agreement"] == 100.0
    assert documents["b"]["kappa"] == pytest.approx(1.0)
    assert documents["a"]["annotators"] == [world.annotator.pk, second.pk]
    assert documents["a"]["usernames"] == ["annotator", "second"]
    (pair,) = documents["a"]["pairs"]
    assert pair["usernames"] == ["annotator", "second"]
    assert pair["kappa"] == documents["a"]["kappa"]

    summary = row["summary"]["turn_agreement"]
    assert summary["count"] == 2
    assert summary["mean"] == pytest.approx(90.0)
    assert summary["min"] == pytest.approx(80.0)

    pooled = agreement([CodedDocument(labels[name], [4] * TURNS) for name in ("a", "b")])
    assert row["overall"]["units"] == 20
    assert row["overall"]["turn_agreement"] == pytest.approx(90.0)
    assert row["overall"]["alpha"] == pytest.approx(pooled.overall.alpha)
    assert row["overall"]["kappa"] == pytest.approx(pooled.overall.kappa)
    (iteration_pair,) = row["pairs"]
    assert iteration_pair["documents"] == 2
    assert iteration_pair["usernames"] == ["annotator", "second"]


def test_an_iteration_without_double_annotation_has_empty_figures(world):
    data = get_agreement(world)

    (row,) = data["iterations"]
    assert row["documents"] == []
    assert row["pairs"] == []
    assert row["overall"]["units"] == 0
    assert row["overall"]["kappa"] is None
    assert row["summary"]["kappa"]["count"] == 0


def test_each_annotator_against_the_adjudicated_gold_and_their_time(world, doubly_annotated):
    iteration, second, labels = doubly_annotated
    document_a = Document.objects.get(project=world.project, name="a")
    # The curator keeps the first annotator's labels as the gold of `a`; `b`'s identical
    # submissions are its gold without adjudication, so they do not count.
    adjudication_complete(curator=world.curator, document=document_a, version=0)

    rows = {
        row["username"]: row
        for row in get(world, "annotators")["rows"]
        if row["iteration"] == iteration.pk
    }

    assert set(rows) == {"annotator", "second"}
    assert rows["annotator"]["submitted_documents"] == 2
    assert rows["second"]["submitted_documents"] == 3
    assert rows["annotator"]["against_gold"]["documents"] == 1
    assert rows["annotator"]["against_gold"]["turn_agreement"] == 100.0
    assert rows["second"]["against_gold"]["turn_agreement"] == pytest.approx(80.0)
    expected = agreement(
        [CodedDocument({"second": labels["a"][second.pk], "gold": labels["a"][world.annotator.pk]},
                       [4] * TURNS)]
    ).overall  # fmt: skip
    assert rows["second"]["against_gold"]["kappa"] == pytest.approx(expected.kappa)
    assert rows["annotator"]["seconds_per_document"] == SECONDS["annotator"]
    assert rows["second"]["seconds_spent"] == 3 * SECONDS["second"]


def test_without_adjudication_there_is_nothing_to_compare_with(world, doubly_annotated):
    rows = get(world, "annotators")["rows"]

    assert rows
    assert all(row["against_gold"] is None for row in rows)


@pytest.mark.parametrize("chart", ["agreement", "annotators"])
@pytest.mark.parametrize(
    ("who", "status"),
    [
        ("lead", 200),
        ("admin", 200),
        ("curator", 403),
        ("annotator", 403),
        ("outsider", 403),
        ("anonymous", 401),
    ],
)
def test_only_leads_see_agreement_and_annotators(world, chart, who, status):
    response = world.client(who).get(f"/api/v1/projects/{world.project.pk}/dashboard/{chart}/")
    assert response.status_code == status


def test_pairs_of_annotators_who_shared_no_document_are_left_out(world):
    users = {name: make_user(name) for name in ("one", "two", "three")}
    for user in users.values():
        Membership.objects.create(project=world.project, user=user, role=Role.ANNOTATOR)
    pairs = {"c": ("one", "two"), "d": ("two", "three")}
    documents = {
        name: make_document(
            world.project,
            name=name,
            assignees=[users[who] for who in pair],
            pre_alignment=PRE_ALIGNMENT,
        )
        for name, pair in pairs.items()
    }
    iteration = annotating_iteration(world.project, list(documents.values()))
    for name, pair in pairs.items():
        for who in pair:
            submit_moved(users[who], documents[name], 3)

    row = next(r for r in get_agreement(world)["iterations"] if r["iteration"] == iteration.pk)

    assert [pair["usernames"] for pair in row["pairs"]] == [["one", "two"], ["two", "three"]]
    assert row["overall"]["documents"] == 2
