"""The stored gold follows every write the rule reads, closing refuses documents without gold,
and nothing is annotated after the close (issue #14's scenario)."""

from backend.alignments.models import Annotation
from backend.curation.models import Gold, GoldRule
from backend.iterations.models import AccuracyRecord
from tests.iterations.builders import annotating_iteration


def annotation_url(world, document, suffix: str = "") -> str:
    return f"/api/v1/projects/{world.project.pk}/documents/{document.pk}/annotation/{suffix}"


def submit(world, who: str, document, segment: int):
    """Assign turns 0-2 to `segment` and submit; returns the submit response."""
    client = world.client(who)
    edited = client.post(
        annotation_url(world, document),
        {"version": 0, "seconds_spent": 30,
         "operations": [{"action": "assign", "first_turn": 0, "last_turn": 2, "segment": segment}]},
        format="json",
    )  # fmt: skip
    assert edited.status_code == 200, edited.json()
    return client.post(
        annotation_url(world, document, "submit/"), {"version": edited.json()["version"]}
    )


def close(world, iteration):
    return world.client("lead").post(
        f"/api/v1/projects/{world.project.pk}/iterations/{iteration.pk}/close/",
        {"tune": False},
        format="json",
    )


def double_assigned(world):
    world.document.assignees.set([world.annotator, world.second_annotator])
    return annotating_iteration(world.project, [world.document])


def test_closing_waits_for_every_assignee_then_for_an_adjudication(world):
    iteration = double_assigned(world)

    submit(world, "annotator", world.document, 0)
    waiting = close(world, iteration)
    assert waiting.status_code == 409
    assert waiting.json()["unsubmitted"] == [world.document.pk]
    assert waiting.json()["reasons"] == [
        f"Document {world.document.name!r} still waits for a submission from every assignee: "
        "wait for them, or take it out of the iteration."
    ]
    assert not Gold.objects.exists(), "one of two submissions is not gold"

    submit(world, "second_annotator", world.document, 1)
    disputed = close(world, iteration)
    assert disputed.status_code == 409
    assert disputed.json()["needs_adjudication"] == [world.document.pk]
    assert "needs adjudication: their annotators' submissions disagree" in disputed.json()["detail"]
    assert disputed.json()["reasons"] == [
        f"Document {world.document.name!r} needs adjudication: their annotators' submissions "
        "disagree, so no submission is gold until a lead or curator adjudicates."
    ]
    assert not AccuracyRecord.objects.exists()


def test_agreeing_assignees_make_gold_and_the_record_says_so(world):
    iteration = double_assigned(world)
    submit(world, "annotator", world.document, 0)
    submit(world, "second_annotator", world.document, 0)

    closed = close(world, iteration)

    assert closed.status_code == 200, closed.json()
    record = AccuracyRecord.objects.get()
    assert record.gold_rule == GoldRule.AGREED
    assert record.seconds_spent == 60, "the gold cost both annotators' time"
    assert record.gold_labels[:3] == [0, 0, 0]


def test_stored_gold_follows_submission_reopening_and_assignees(world):
    assert submit(world, "annotator", world.document, 1).status_code == 200
    gold = Gold.objects.get(document=world.document)
    assert (gold.rule, gold.labels[:3]) == (GoldRule.SINGLE_ANNOTATOR, [1, 1, 1])

    version = Annotation.objects.get(annotator=world.annotator).version
    reopened = world.client("annotator").post(
        annotation_url(world, world.document, "reopen/"), {"version": version}
    )
    assert reopened.status_code == 200
    assert not Gold.objects.exists()

    world.client("annotator").post(
        annotation_url(world, world.document, "submit/"), {"version": version + 1}
    )
    assert Gold.objects.filter(document=world.document).exists()
    assigned = world.client("lead").patch(
        f"/api/v1/projects/{world.project.pk}/documents/{world.document.pk}/",
        {"assignees": [world.annotator.pk, world.second_annotator.pk]},
        format="json",
    )
    assert assigned.status_code == 200
    assert not Gold.objects.exists(), "a new assignee's submission is awaited"


def test_a_submission_after_the_close_is_refused_and_the_gold_stays(world):
    """Issue #14: the assigned annotator's late submission was accepted after the close."""
    world.document.assignees.set([world.annotator, world.second_annotator])
    other = world.unassigned_document
    other.assignees.set([world.annotator])
    iteration = annotating_iteration(world.project, [world.document, other])
    submit(world, "annotator", other, 0)
    world.document.assignees.set([world.annotator])
    submit(world, "annotator", world.document, 0)
    assert close(world, iteration).status_code == 200
    world.document.assignees.set([world.annotator, world.second_annotator])

    late = world.client("second_annotator").post(
        annotation_url(world, world.document),
        {"version": 0, "operations": [{"action": "unalign", "first_turn": 0, "last_turn": 0}]},
        format="json",
    )
    late_submit = world.client("second_annotator").post(
        annotation_url(world, world.document, "submit/"), {"version": 0}
    )

    for response in (late, late_submit):
        assert response.status_code == 409
        assert f"Iteration {iteration.number} was closed" in response.json()["detail"]
        assert "takes no more annotations" in response.json()["detail"]
    assert not Annotation.objects.filter(annotator=world.second_annotator).exists()
    assert Gold.objects.get(document=world.document).labels[:3] == [0, 0, 0]


def test_an_annotators_list_says_whether_they_submitted_not_whether_anyone_did(world):
    """Issue #14: the list said "Submitted" before the assignee had submitted."""
    world.document.assignees.set([world.annotator, world.second_annotator])
    submit(world, "second_annotator", world.document, 1)

    listed = world.client("annotator").get(f"/api/v1/projects/{world.project.pk}/documents/")
    theirs = world.client("second_annotator").get(
        f"/api/v1/projects/{world.project.pk}/documents/{world.document.pk}/"
    )

    row = next(item for item in listed.json()["results"] if item["id"] == world.document.pk)
    assert row["status"] == "submitted"
    assert row["my_annotation"] is None
    assert theirs.json()["my_annotation"]["submitted_at"]


def test_the_iteration_detail_says_which_documents_need_adjudication(world):
    iteration = double_assigned(world)
    submit(world, "annotator", world.document, 0)
    detail_url = f"/api/v1/projects/{world.project.pk}/iterations/{iteration.pk}/"
    lead = world.client("lead")

    waiting = lead.get(detail_url).json()["documents"][0]["gold"]
    submit(world, "second_annotator", world.document, 1)
    disputed = lead.get(detail_url).json()["documents"][0]["gold"]

    assert waiting == {"state": "unsubmitted", "rule": None}
    assert disputed == {"state": "needs_adjudication", "rule": None}
