"""Double annotation when opening an iteration: a recorded, reproducible draw of a share of
the batch (or the documents named), each given a second annotator."""

import pytest

from backend.core.errors import InvalidInput
from backend.iterations.double_annotation import add_second_annotators, draw_documents
from backend.iterations.models import Iteration
from tests.domain import make_document


def test_the_same_seed_draws_the_same_share_whatever_the_batch_order():
    batch = list(range(100, 110))

    first = draw_documents(batch, 0.2, seed=7)

    assert len(first) == 2
    assert draw_documents(list(reversed(batch)), 0.2, seed=7) == first
    assert len({tuple(draw_documents(batch, 0.2, seed)) for seed in range(20)}) > 1
    assert draw_documents(batch, 0.01, seed=1) != [], "a share above 0 draws a document"
    assert draw_documents(batch, 0, seed=1) == []


def test_second_annotators_are_the_least_loaded_and_never_the_first():
    planned = add_second_annotators({1: [5], 2: [6], 3: [5], 4: []}, drawn=[1, 4], pool=[5, 6, 7])

    assert planned[1] == [5, 7], "7 has nothing yet, 6 has one document"
    assert planned[4] == [6, 7], "5, 6 and 7 then have two, one, one: 6 by pool order, then 7"
    assert (planned[2], planned[3]) == ([6], [5]), "documents not drawn keep their annotators"


def test_a_pool_without_anyone_else_is_refused():
    with pytest.raises(InvalidInput, match="cannot have two annotators"):
        add_second_annotators({1: [5]}, drawn=[1], pool=[5])


def open_batch(world, batch, **double):
    return world.client("lead").post(
        f"/api/v1/projects/{world.project.pk}/iterations/",
        {"documents": [d.pk for d in batch], "double_annotation": double},
        format="json",
    )


def test_opening_with_a_share_records_the_draw_and_assigns_two_annotators(world):
    batch = [world.unassigned_document] + [
        make_document(world.project, name=f"doc {i}") for i in range(4)
    ]
    for document in batch:
        document.assignees.set([world.annotator])

    opened = open_batch(world, batch, share=0.4, seed=3)

    assert opened.status_code == 201, opened.json()
    double = opened.json()["double_annotation"]
    assert (double["share"], double["seed"]) == (0.4, 3)
    assert double["documents"] == draw_documents([d.pk for d in batch], 0.4, 3)
    assert double["annotators"] == [world.annotator.pk, world.second_annotator.pk]
    assignees = {d["id"]: d["assignees"] for d in opened.json()["documents"]}
    for document in batch:
        expected = [world.annotator.pk]
        if document.pk in double["documents"]:
            expected.append(world.second_annotator.pk)
        assert sorted(assignees[document.pk]) == sorted(expected)
    assert Iteration.objects.get(pk=opened.json()["id"]).double_annotation == double


def test_a_seed_is_chosen_and_recorded_when_none_is_given(world):
    opened = open_batch(world, [world.unassigned_document], share=1)

    assert opened.status_code == 201, opened.json()
    assert isinstance(opened.json()["double_annotation"]["seed"], int)
    assert len(opened.json()["documents"][0]["assignees"]) == 2


@pytest.mark.parametrize(
    ("double", "message"),
    [
        ({}, "one of the two"),
        ({"share": 0.5, "documents": []}, "one of the two"),
        ({"share": 1.5}, "less than or equal to 1"),
        ({"documents": [999999]}, "not in the batch"),
        ({"share": 1, "annotators": [123456]}, "not members"),
    ],
)
def test_bad_double_annotation_requests_are_refused_and_nothing_opens(world, double, message):
    refused = open_batch(world, [world.unassigned_document], **double)

    assert refused.status_code == 400
    assert message in str(refused.json())
    assert not Iteration.objects.filter(number=2).exists()
