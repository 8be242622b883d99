"""Issue #14's opening scenario in a real browser, on a real public_meetings meeting: a lead
opens a document assigned to annotators and gets their work read-only, not a copy of their
own that would become gold; an annotator's list does not say "Submitted" because a
co-annotator submitted; the iteration waits for every assignee, and once it is closed a late
change or reopening is refused with the reason on the page."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from backend.alignments.models import Annotation
from backend.alignments.services.annotations import (
    AssignmentOperation,
    annotation_apply,
    annotation_submit,
)
from backend.curation.models import Gold, GoldRule
from backend.curation.public_meetings import import_public_meeting
from backend.documents.models import Document
from backend.iterations.models import AccuracyRecord
from backend.projects.models import Membership, Role
from tests.browser.conftest import (
    PASSWORD,
    SMALL_MEETING,
    expect_turn_assigned,
    go_to_turn,
    open_editor,
    sign_in,
    wait_until_saved,
)
from tests.iterations.builders import annotating_iteration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

UNALIGNED = -1


def status_in_list(page, document):
    return (
        page.get_by_test_id("document-row").filter(has_text=document.name).locator(".status-badge")
    )


def is_a_save(response) -> bool:
    return response.request.method == "POST" and response.url.endswith("/annotation/")


def close_without_tuning(page) -> None:
    page.get_by_text("Tuning options").click()
    page.get_by_label("Tune after closing").uncheck()
    page.get_by_role("button", name="Close iteration 1").click()


def test_a_leads_visit_makes_no_gold_and_work_after_the_close_is_refused(
    page, live_server, browser, team
):
    second = get_user_model().objects.create_user("second", password=PASSWORD)
    Membership.objects.create(project=team.project, user=second, role=Role.ANNOTATOR)
    document = import_public_meeting(
        actor=team.lead,
        project=team.project,
        meeting_id=SMALL_MEETING,
        assignees=[team.annotator, second],
    )
    iteration = annotating_iteration(team.project, [document])
    iteration_url = f"{live_server.url}/lead/projects/{team.project.pk}/iterations/{iteration.pk}"

    # The lead opens the annotators' document: their work, read-only, nothing of the lead's.
    sign_in(page, live_server, "lead")
    open_editor(page, live_server, document)
    review = page.get_by_role("region", name="Reading the assignees' work")
    expect(review).to_contain_text("Assigned to others: you are reading their work, read-only.")
    expect(review).to_contain_text("Adjudication opens once an assignee has submitted.")
    expect(page.get_by_test_id("save-status")).to_have_text("Read-only")
    expect(page.get_by_role("button", name="Submit")).to_have_count(0)
    go_to_turn(page, 3)
    page.keyboard.press("Alt+ArrowDown")
    expect(page.get_by_role("alert")).to_contain_text(
        "This is someone else's work, shown read-only."
    )
    expect_turn_assigned(page, 3, 0)
    page.keyboard.press("Control+Enter")
    expect(page.get_by_role("dialog")).to_have_count(0)
    assert not Annotation.objects.filter(document=document).exists()
    assert not Gold.objects.filter(document=document).exists()

    # The second assignee submits (turn 3 to segment 2); the lead may adjudicate from here.
    corrected = annotation_apply(
        annotator=second,
        document=document,
        version=0,
        operations=[AssignmentOperation("assign", 3, 3, 1)],
        seconds_spent=60,
    )
    annotation_submit(annotator=second, document=document, version=corrected.version)
    page.reload()
    expect(review.get_by_label("Showing")).to_have_value(
        str(Annotation.objects.get(annotator=second).pk)
    )
    expect(review.get_by_role("link", name="Adjudicate (1 submitted)")).to_be_visible()
    expect_turn_assigned(page, 3, 1)
    # Closing waits for the other assignee: one submission is not the gold of two.
    page.goto(iteration_url)
    close_without_tuning(page)
    expect(page.get_by_role("alert")).to_contain_text(
        "still waits for a submission from every assignee"
    )
    assert not Gold.objects.filter(document=document).exists()

    annotator_context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        annotator = annotator_context.new_page()
        sign_in(annotator, live_server, "annotator")
        # The document counts as submitted; the annotator has not submitted, and is told so.
        assert Document.objects.get(pk=document.pk).status == Document.Status.SUBMITTED
        expect(status_in_list(annotator, document)).to_have_text("To do")
        # A window left open from before the close, to try a change afterwards.
        stale = annotator_context.new_page()
        open_editor(stale, live_server, document)
        expect(stale.get_by_role("button", name="Submit")).to_be_enabled()

        annotator.get_by_role("link", name=document.name, exact=True).click()
        annotator.get_by_test_id("editor").wait_for()
        go_to_turn(annotator, 3)
        with annotator.expect_response(is_a_save):
            annotator.keyboard.press("Alt+ArrowDown")
        expect_turn_assigned(annotator, 3, 1)
        wait_until_saved(annotator)
        annotator.goto(live_server.url + "/")
        expect(status_in_list(annotator, document)).to_have_text("In progress")
        annotator.get_by_role("link", name=document.name, exact=True).click()
        annotator.get_by_test_id("editor").wait_for()
        annotator.keyboard.press("Control+Enter")
        annotator.get_by_role("dialog", name="Submit this document?").get_by_role(
            "button", name="Submit"
        ).click()
        expect(annotator.get_by_test_id("save-status")).to_contain_text("Submitted")

        # The two agree: their submissions are the gold, the lead's visit no part of it.
        gold = Gold.objects.get(document=document)
        assert gold.rule == GoldRule.AGREED
        assert sorted(gold.annotators) == sorted([team.annotator.pk, second.pk])
        page.goto(iteration_url)
        expect(
            page.get_by_test_id("batch-document").filter(has_text=document.name)
        ).to_contain_text("agreed submissions")
        close_without_tuning(page)
        expect(page.get_by_test_id("iteration-status")).to_have_text("Closed")
        record = AccuracyRecord.objects.get(iteration=iteration, document=document)
        assert record.gold_rule == GoldRule.AGREED
        assert record.gold_labels[3] == 1

        # Too late: reopening the submission, or a change from the window left open.
        annotator.get_by_role("button", name="Reopen").click()
        expect(annotator.get_by_role("alert")).to_contain_text(
            "Iteration 1 is closed: its gold is recorded and tuned on, so this submission "
            "can no longer be reopened."
        )
        expect(annotator.get_by_test_id("save-status")).to_contain_text("Submitted")
        annotator.reload()
        annotator.get_by_test_id("editor").wait_for()
        expect(annotator.get_by_text("Its iteration is closed")).to_be_visible()
        expect(annotator.get_by_role("button", name="Reopen")).to_have_count(0)
        stale.bring_to_front()
        go_to_turn(stale, 7)
        with stale.expect_response(is_a_save):
            stale.keyboard.press("u")
        expect(stale.get_by_test_id("save-status")).to_have_text(
            re.compile(
                r"^Not saved: Iteration 1 was closed on .* UTC: its gold is recorded and tuned "
                rf"on, so {re.escape(document.name)} takes no more annotations\."
            )
        )
        mine = Annotation.objects.get(document=document, annotator=team.annotator)
        assert mine.submitted_at is not None
        assert mine.assignments[7] != UNALIGNED
    finally:
        annotator_context.close()

    assert not Annotation.objects.filter(document=document, annotator=team.lead).exists()
