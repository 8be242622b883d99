"""Bulk edits of an annotation: each kind of edit, the order rule, optimistic concurrency,
and bad input that must leave the stored annotation untouched."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from backend.alignments.models import Annotation
from backend.alignments.selectors import current_pre_alignment
from backend.documents.models import Document
from tests.domain import evenly


def url(world, suffix: str = "") -> str:
    return f"/api/v1/projects/{world.project.pk}/documents/{world.document.pk}/annotation/{suffix}"


def edit(client, world, version: int, *operations: dict, **extra):
    body = {"version": version, "operations": list(operations), **extra}
    return client.post(url(world), body, format="json")


@pytest.fixture
def annotator(world):
    return world.client("annotator")


def test_editor_shows_the_pre_alignment_as_version_0_before_any_write(world, annotator):
    response = annotator.get(
        f"/api/v1/projects/{world.project.pk}/documents/{world.document.pk}/editor/"
    )

    body = response.json()
    assert [turn["position"] for turn in body["turns"]] == list(range(10))
    assert len(body["segments"]) == 4
    assert body["pre_alignment"]["labels"] == evenly(10, 4)
    assert body["annotation"]["version"] == 0
    assert body["annotation"]["assignments"] == evenly(10, 4)
    assert not Annotation.objects.exists(), "reading writes nothing"


def test_the_editor_marks_low_confidence_below_the_threshold_the_lead_sets(world, annotator):
    editor = f"/api/v1/projects/{world.project.pk}/documents/{world.document.pk}/editor/"
    assert annotator.get(editor).json()["pre_alignment"]["low_confidence_below"] == 0.4

    project = f"/api/v1/projects/{world.project.pk}/"
    refused = annotator.patch(project, {"settings": {"low_confidence_below": 0.8}}, format="json")
    assert refused.status_code == 403
    too_high = world.client("lead").patch(
        project, {"settings": {"low_confidence_below": 1.2}}, format="json"
    )
    assert too_high.status_code == 400
    assert "less than or equal to 1" in str(too_high.json())
    changed = world.client("lead").patch(
        project, {"settings": {"low_confidence_below": 0.8}}, format="json"
    )
    assert changed.status_code == 200, changed.json()

    assert annotator.get(editor).json()["pre_alignment"]["low_confidence_below"] == 0.8


def test_assign_a_run_then_unalign_then_reset(world, annotator):
    assigned = edit(
        annotator, world, 0, {"action": "assign", "first_turn": 2, "last_turn": 4, "segment": 1}
    )
    assert assigned.status_code == 200, assigned.json()
    assert assigned.json()["assignments"] == [0, 0, 1, 1, 1, 2, 2, 2, 3, 3]
    assert assigned.json()["changed"][2] is True
    assert assigned.json()["version"] == 1

    unaligned = edit(annotator, world, 1, {"action": "unalign", "first_turn": 8, "last_turn": 9})
    assert unaligned.json()["assignments"][8:] == [-1, -1]

    reset = edit(
        annotator, world, 2, {"action": "reset", "first_turn": 0, "last_turn": 9}, seconds_spent=30
    )
    body = reset.json()
    assert body["assignments"] == evenly(10, 4)
    assert not any(body["changed"])
    assert (body["version"], body["seconds_spent"]) == (3, 30)
    world.document.refresh_from_db()
    assert world.document.status == Document.Status.IN_ANNOTATION


def test_a_stale_version_gets_409_with_the_current_state_and_changes_nothing(world, annotator):
    edit(annotator, world, 0, {"action": "unalign", "first_turn": 0, "last_turn": 0})
    edit(annotator, world, 1, {"action": "unalign", "first_turn": 1, "last_turn": 1})

    stale = edit(annotator, world, 1, {"action": "unalign", "first_turn": 5, "last_turn": 5})

    assert stale.status_code == 409
    body = stale.json()
    assert "stale" in body["detail"]
    assert body["current"]["version"] == 2
    assert body["current"]["assignments"][5] != -1
    assert Annotation.objects.get().assignments[5] != -1


def test_two_assignees_have_separate_annotations(world, annotator):
    world.document.assignees.add(world.second_annotator)
    edit(annotator, world, 0, {"action": "unalign", "first_turn": 0, "last_turn": 0})

    response = edit(
        world.client("second_annotator"),
        world,
        0,
        {"action": "unalign", "first_turn": 9, "last_turn": 9},
    )

    assert response.status_code == 200
    assert Annotation.objects.count() == 2


@pytest.mark.parametrize("who", ["lead", "admin"])
def test_a_member_the_document_is_not_assigned_to_cannot_annotate_it(world, who):
    """The scenario of issue #14: a lead's own copy of an annotator's document would have
    become its gold by being submitted last."""
    response = edit(
        world.client(who), world, 0, {"action": "unalign", "first_turn": 9, "last_turn": 9}
    )
    submitted = world.client(who).post(url(world, "submit/"), {"version": 0}, format="json")

    assert response.status_code == submitted.status_code == 403
    assert "assigned to someone else" in response.json()["detail"]
    assert "adjudication" in response.json()["detail"]
    assert not Annotation.objects.exists()


def test_a_lead_cannot_withdraw_a_submission_on_a_document_assigned_to_others(world):
    """Reopening used to answer 200 here, after which the lead could neither save nor
    submit (403): the submission (as an import's gold is) was stuck withdrawn."""
    lead = world.client("lead")
    document = world.unassigned_document
    base = f"/api/v1/projects/{world.project.pk}/documents/{document.pk}/annotation/"
    assert lead.post(f"{base}submit/", {"version": 0}, format="json").status_code == 200
    document.assignees.add(world.annotator)
    before = Annotation.objects.get(document=document)

    response = lead.post(f"{base}reopen/", {"version": before.version}, format="json")

    assert response.status_code == 403
    assert "assigned to someone else" in response.json()["detail"]
    after = Annotation.objects.get(document=document)
    assert (after.version, after.submitted_at) == (before.version, before.submitted_at)
    editor = lead.get(f"/api/v1/projects/{world.project.pk}/documents/{document.pk}/editor/")
    assert editor.json()["may_reopen"] is False


def test_an_unassigned_document_is_annotated_by_whoever_opens_it(world):
    lead = world.client("lead")
    response = lead.post(
        f"/api/v1/projects/{world.project.pk}/documents/{world.unassigned_document.pk}/annotation/",
        {"version": 0, "operations": [{"action": "unalign", "first_turn": 0, "last_turn": 0}]},
        format="json",
    )

    assert response.status_code == 200


def test_breaking_the_report_order_is_refused_naming_the_first_offending_turn(world, annotator):
    response = edit(
        annotator, world, 0, {"action": "assign", "first_turn": 6, "last_turn": 6, "segment": 0}
    )

    assert response.status_code == 400
    assert response.json()["turn"] == 6
    assert "Turn 6" in response.json()["detail"]
    assert not Annotation.objects.exists()


def test_a_batch_is_all_or_nothing(world, annotator):
    response = edit(
        annotator,
        world,
        0,
        {"action": "unalign", "first_turn": 0, "last_turn": 3},
        {"action": "assign", "first_turn": 4, "last_turn": 99, "segment": 1},
    )

    assert response.status_code == 400
    assert "operations[1]" in response.json()["detail"]
    assert not Annotation.objects.exists()


@pytest.mark.parametrize(
    ("body", "complaint"),
    [
        ({"version": 0, "operations": [{"action": "assign", "first_turn": 0, "last_turn": 0,
                                        "segment": 4}]}, "segment 4"),
        ({"version": 0, "operations": [{"action": "assign", "first_turn": 0, "last_turn": 0}]},
         "segment"),
        ({"version": 0, "operations": [{"action": "move", "first_turn": 0, "last_turn": 0}]},
         "action"),
        ({"version": 0, "operations": [{"action": "unalign", "first_turn": 3, "last_turn": 1}]},
         "last_turn"),
        ({"version": 0, "operations": [{"action": "unalign", "first_turn": -1, "last_turn": 1}]},
         "first_turn"),
        ({"version": "zero", "operations": []}, "version"),
        ({"version": 0, "operations": []}, "operations"),
        ({"operations": [{"action": "unalign", "first_turn": 0, "last_turn": 0}]}, "version"),
    ],
)  # fmt: skip
def test_bad_edits_get_a_400_naming_the_problem(world, annotator, body, complaint):
    response = annotator.post(url(world), body, format="json")

    assert response.status_code == 400
    assert complaint in str(response.json())
    assert not Annotation.objects.exists()


def test_malformed_json_gets_a_400(world, annotator):
    response = annotator.post(url(world), "{not json", content_type="application/json")

    assert response.status_code == 400
    assert "JSON parse error" in response.json()["detail"]


def test_submit_then_edit_is_refused(world, annotator):
    edit(annotator, world, 0, {"action": "unalign", "first_turn": 0, "last_turn": 0})

    submitted = annotator.post(url(world, "submit/"), {"version": 1}, format="json")
    assert submitted.status_code == 200
    assert submitted.json()["submitted_at"]
    world.document.refresh_from_db()
    assert world.document.status == Document.Status.SUBMITTED

    late = edit(annotator, world, 2, {"action": "unalign", "first_turn": 1, "last_turn": 1})
    assert late.status_code == 409
    assert "submitted" in late.json()["detail"]


def test_a_submission_reopened_takes_edits_again_and_is_submitted_anew(world, annotator):
    edit(annotator, world, 0, {"action": "unalign", "first_turn": 0, "last_turn": 0})
    annotator.post(url(world, "submit/"), {"version": 1}, format="json")

    reopened = annotator.post(url(world, "reopen/"), {"version": 2}, format="json")

    assert reopened.status_code == 200
    assert reopened.json()["submitted_at"] is None
    assert reopened.json()["version"] == 3
    world.document.refresh_from_db()
    assert world.document.status == Document.Status.IN_ANNOTATION
    fixed = edit(annotator, world, 3, {"action": "unalign", "first_turn": 1, "last_turn": 1})
    assert fixed.status_code == 200
    assert annotator.post(url(world, "submit/"), {"version": 4}, format="json").status_code == 200
    assert Annotation.objects.get().assignments[:2] == [-1, -1]


@pytest.mark.parametrize(
    ("submit", "version", "in_closed_iteration", "problem"),
    [
        (False, 1, False, "This annotation is not submitted; there is nothing to reopen."),
        (True, 1, False, "version"),
        (True, 2, True, "Iteration 1 is closed"),
    ],
)
def test_a_reopen_that_cannot_be_is_409_and_changes_nothing(
    world, annotator, submit, version, in_closed_iteration, problem
):
    edit(annotator, world, 0, {"action": "unalign", "first_turn": 0, "last_turn": 0})
    if submit:
        annotator.post(url(world, "submit/"), {"version": 1}, format="json")
    if in_closed_iteration:
        Document.objects.filter(pk=world.document.pk).update(iteration=world.iteration)
    before = Annotation.objects.get()

    response = annotator.post(url(world, "reopen/"), {"version": version}, format="json")

    assert response.status_code == 409
    assert problem in response.json()["detail"]
    after = Annotation.objects.get()
    assert (after.version, after.submitted_at) == (before.version, before.submitted_at)


def test_submit_with_a_stale_version_is_409(world, annotator):
    edit(annotator, world, 0, {"action": "unalign", "first_turn": 0, "last_turn": 0})

    response = annotator.post(url(world, "submit/"), {"version": 0}, format="json")

    assert response.status_code == 409
    assert Annotation.objects.get().submitted_at is None


def test_submit_adds_the_time_spent_since_the_last_save(world, annotator):
    saved = edit(
        annotator,
        world,
        0,
        {"action": "unalign", "first_turn": 0, "last_turn": 0},
        seconds_spent=30,
    )
    assert saved.status_code == 200

    submitted = annotator.post(
        url(world, "submit/"), {"version": 1, "seconds_spent": 12}, format="json"
    )

    assert submitted.status_code == 200
    assert submitted.json()["seconds_spent"] == 42
    assert Annotation.objects.get().seconds_spent == 42


def test_each_saves_answer_is_the_annotation_as_stored(world, annotator):
    version = 0
    for first_turn, seconds in ((0, 5), (1, 7), (0, 11)):
        answer = edit(
            annotator,
            world,
            version,
            {"action": "unalign", "first_turn": first_turn, "last_turn": first_turn},
            seconds_spent=seconds,
        )
        assert answer.status_code == 200
        stored = Annotation.objects.get()
        assert answer.json() | {"submitted_at": None} == {
            "id": stored.pk,
            "version": stored.version,
            "annotator": stored.annotator_id,
            "pre_alignment": stored.pre_alignment_id,
            "assignments": stored.assignments,
            "changed": stored.changed,
            "reviewed": stored.reviewed,
            "accepted_without_review": stored.accepted_without_review,
            "seconds_spent": stored.seconds_spent,
            "submitted_at": None,
        }
        version = stored.version
    assert (stored.version, stored.seconds_spent) == (3, 23)
    assert stored.changed[:2] == [True, True]


def test_a_save_reads_the_pre_alignment_once_and_joins_no_table_for_an_ordering(world, annotator):
    """The burst of first saves when a team starts is the write tail's start
    (docs/api-load.md): each lookup of a single row is read without the model's ordering,
    which joined the projects, documents and users tables to it, and a first save reads the
    current pre-alignment once, for its baseline and its link alike."""
    operation = {"action": "unalign", "first_turn": 0, "last_turn": 1}
    with CaptureQueriesContext(connection) as first_save:
        created = edit(annotator, world, 0, operation)
    with CaptureQueriesContext(connection) as later_save:
        edit(annotator, world, created.json()["version"], operation)

    assert created.json()["pre_alignment"] == current_pre_alignment(document=world.document).pk
    selects = [
        query["sql"]
        for query in (*first_save.captured_queries, *later_save.captured_queries)
        if query["sql"].startswith("SELECT")
    ]
    assert not [sql for sql in selects if '"projects_project"."name"' in sql.split("ORDER BY")[-1]]
    assert not [sql for sql in selects if "ORDER BY" in sql and '"auth_user"' in sql]
    choices = [
        query["sql"]
        for query in first_save.captured_queries
        if 'FROM "alignments_prealignment"' in query["sql"]
    ]
    assert len(choices) == 2, "the current pre-alignment's choice and its row, once each"
