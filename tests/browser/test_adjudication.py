"""Adjudication in a real browser, on a real public_meetings meeting that two annotators
corrected differently: the lead finds the document refused at closing, compares the two
submissions side by side, steps through the disagreements and takes sides from the keyboard,
corrects by hand and completes; the adjudication is then the document's gold and the
iteration closes. Two curators adjudicating at once lose nothing."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from backend.alignments.models import Annotation
from backend.alignments.selectors import current_pre_alignment
from backend.alignments.services.annotations import (
    AssignmentOperation,
    annotation_apply,
    annotation_submit,
)
from backend.curation.models import Adjudication, Gold, GoldRule
from backend.curation.public_meetings import import_public_meeting
from backend.iterations.models import AccuracyRecord
from backend.projects.models import Membership, Role
from tests.browser.accessibility import assert_accessible
from tests.browser.conftest import (
    PASSWORD,
    SMALL_MEETING,
    expect_focused_turn,
    expect_turn_assigned,
    go_to_turn,
    sign_in,
    turn,
    wait_until_saved,
)
from tests.iterations.builders import annotating_iteration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

UNALIGNED = -1
FIRST_CORRECTIONS = [
    AssignmentOperation("unalign", 8, 9),
    AssignmentOperation("unalign", 25, 25),
]
SECOND_CORRECTIONS = [
    AssignmentOperation("assign", 3, 3, 1),
    AssignmentOperation("assign", 8, 9, 6),
]
"""On the meeting's pre-alignment 0,0,0,0 | 1 | 2 | 3,3 | 4,4 | 8 ... (turn 25 on 16): the two
annotators disagree on turns 3, 8, 9 and 25, and agree everywhere else."""


def submit(annotator, document, operations) -> Annotation:
    annotation = annotation_apply(
        annotator=annotator, document=document, version=0, operations=operations, seconds_spent=90
    )
    return annotation_submit(annotator=annotator, document=document, version=annotation.version)


@pytest.fixture
def disputed(team):
    """The small meeting, assigned to `annotator` and `second`, who submitted (in that order)
    corrections that disagree on turns 3, 8, 9 and 25; a curator besides the lead."""
    users = get_user_model().objects
    second = users.create_user("second", password=PASSWORD)
    curator = users.create_user("curator", password=PASSWORD)
    Membership.objects.create(project=team.project, user=second, role=Role.ANNOTATOR)
    Membership.objects.create(project=team.project, user=curator, role=Role.CURATOR)
    document = import_public_meeting(
        actor=team.lead,
        project=team.project,
        meeting_id=SMALL_MEETING,
        assignees=[team.annotator, second],
    )
    iteration = annotating_iteration(team.project, [document])
    first = submit(team.annotator, document, FIRST_CORRECTIONS)
    submit(second, document, SECOND_CORRECTIONS)
    return document, iteration, first.assignments


def adjudication_url(live_server, document) -> str:
    return f"{live_server.url}/projects/{document.project_id}/documents/{document.pk}/adjudication"


def open_adjudication(page, live_server, document) -> None:
    page.goto(adjudication_url(live_server, document))
    page.get_by_test_id("editor").wait_for()


def expect_sides(page, index: int, first: str, second: str) -> None:
    sides = turn(page, index).get_by_role("list", name="Annotators' labels")
    expect(sides.get_by_role("listitem")).to_have_text(
        [f"1 annotator: {first}", f"2 second: {second}"]
    )


def test_the_documents_table_says_needs_adjudication_and_leads_to_an_accessible_adjudication(
    page, live_server, team, disputed
):
    document, _, _ = disputed
    sign_in(page, live_server, "lead")
    page.goto(f"{live_server.url}/lead/projects/{team.project.pk}/documents")
    row = page.get_by_test_id("lead-document-row").filter(has_text=document.name)
    expect(row).to_contain_text("Submitted Needs adjudication")
    assert_accessible(page, "the documents table with a document needing adjudication")

    row.get_by_role("link", name=f"Adjudicate {document.name}").click()
    expect(page.get_by_role("region", name="Adjudication")).to_contain_text(
        "the document needs adjudication"
    )
    assert_accessible(page, "the adjudication page")


def test_lead_adjudicates_from_the_keyboard_and_the_adjudication_becomes_gold(
    page, live_server, team, disputed
):
    document, iteration, first_labels = disputed
    sign_in(page, live_server, "lead")
    page.goto(f"{live_server.url}/lead/projects/{team.project.pk}/iterations/{iteration.pk}")
    page.get_by_text("Tuning options").click()
    page.get_by_label("Tune after closing").uncheck()
    page.get_by_role("button", name="Close iteration 1").click()
    refusal = page.get_by_role("alert")
    expect(refusal).to_contain_text("Iteration 1 cannot close yet:")
    expect(refusal.get_by_role("listitem")).to_have_text(
        [
            f"Document '{document.name}' needs adjudication: their annotators' submissions "
            "disagree, so no submission is gold until a lead or curator adjudicates."
        ]
    )
    row = page.get_by_test_id("batch-document").filter(has_text=document.name)
    expect(row).to_contain_text("needs adjudication")
    row.get_by_role("link", name="Adjudicate").click()
    page.get_by_test_id("editor").wait_for()

    banner = page.get_by_role("region", name="Adjudication")
    expect(banner).to_contain_text(
        "annotator, second: 4 disputed turns; the document needs adjudication"
    )
    expect(banner).to_contain_text(
        "D next disagreement, Shift+D previous, 1\N{EN DASH}2 take a side"
    )
    # Next disagreement, wrapping around the document: each shows both annotators' labels
    # and is marked, the turns between (agreed on) are not; it starts from the first
    # submission.
    expect_focused_turn(page, 0)
    sides = {
        3: ("§ 1", "§ 2"),
        8: ("unaligned", "§ 7"),
        9: ("unaligned", "§ 7"),
        25: ("unaligned", "§ 17"),
    }
    for index in [3, 8, 9, 25, 3]:
        page.keyboard.press("d")
        expect_focused_turn(page, index)
        expect_sides(page, index, *sides[index])
        expect_turn_assigned(page, index, first_labels[index])
        expect(turn(page, index)).to_have_class(re.compile(r"\bdisputed\b"))
        expect(turn(page, index)).to_have_accessible_name(re.compile(r", annotators disagree: "))
    expect_sides(page, 4, "§ 2", "§ 2")
    expect(turn(page, 4)).not_to_have_class(re.compile(r"\bdisputed\b"))
    expect(turn(page, 4)).not_to_have_accessible_name(re.compile("disagree"))
    # Previous disagreement, wrapping back.
    for index in [25, 9, 8, 3]:
        page.keyboard.press("Shift+D")
        expect_focused_turn(page, index)

    # One key takes the second annotator's side, for a turn and for a run of turns.
    page.keyboard.press("2")
    expect_turn_assigned(page, 3, 1)
    page.keyboard.press("d")
    expect_focused_turn(page, 8)
    page.keyboard.press("Shift+ArrowDown")
    page.keyboard.press("2")
    expect_turn_assigned(page, 8, 6)
    expect_turn_assigned(page, 9, 6)
    # Turn 25 keeps the first annotator's label; turn 40, agreed on, is corrected by hand.
    page.keyboard.press("d")
    expect_focused_turn(page, 25)
    page.keyboard.press("1")
    expect_turn_assigned(page, 25, UNALIGNED)
    go_to_turn(page, 40)
    page.keyboard.press("u")
    expect_turn_assigned(page, 40, UNALIGNED)
    page.keyboard.press("Control+s")
    wait_until_saved(page)

    expected = list(first_labels)
    expected[3], expected[8], expected[9], expected[40] = 1, 6, 6, UNALIGNED
    adjudication = Adjudication.objects.get(document=document)
    assert adjudication.assignments == expected
    assert adjudication.curator == team.lead
    assert adjudication.completed_at is None
    assert not Gold.objects.filter(document=document).exists(), "saving is not completing"

    page.keyboard.press("Control+Enter")
    complete = page.get_by_role("dialog", name="Complete this document?")
    expect(complete).to_contain_text("4 turns differ from the first submission")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("save-status")).to_contain_text("Completed")
    expect(complete).to_be_hidden()
    page.get_by_role("listbox", name="Transcript turns").focus()
    page.keyboard.press("u")
    expect(page.get_by_role("alert")).to_contain_text("completed; reopen it to edit")

    gold = Gold.objects.get(document=document)
    assert gold.rule == GoldRule.ADJUDICATED
    assert gold.labels == expected
    assert gold.adjudication_id == adjudication.pk
    assert expected != list(current_pre_alignment(document=document).labels)

    page.goto(f"{live_server.url}/lead/projects/{team.project.pk}/iterations/{iteration.pk}")
    expect(row).to_contain_text("adjudicated")
    page.get_by_text("Tuning options").click()
    page.get_by_label("Tune after closing").uncheck()
    page.get_by_role("button", name="Close iteration 1").click()
    expect(page.get_by_test_id("iteration-status")).to_have_text("Closed")
    record = AccuracyRecord.objects.get(iteration=iteration, document=document)
    assert (record.gold_rule, record.gold_labels) == (GoldRule.ADJUDICATED, expected)
    assert record.annotator == team.lead


def test_two_curators_adjudicating_at_once_lose_nothing(live_server, browser, team, disputed):
    document, _, first_labels = disputed
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(2)]
    try:
        lead, curator = (context.new_page() for context in contexts)
        for window, username in ((lead, "lead"), (curator, "curator")):
            sign_in(window, live_server, username)
            open_adjudication(window, live_server, document)

        # The lead's first save creates the adjudication; the curator's copy is now stale.
        lead.keyboard.press("d")
        lead.keyboard.press("2")
        wait_until_saved(lead)
        for _ in range(2):
            curator.keyboard.press("d")
        expect_focused_turn(curator, 8)
        curator.keyboard.press("2")
        conflict = curator.get_by_role("dialog", name="This document was changed elsewhere")
        expect(conflict).to_contain_text("It changed 1 turn; you have 1 unsaved change")
        expect(curator.get_by_test_id("save-status")).to_have_text(
            "Changed elsewhere: choose a version"
        )
        expect_turn_assigned(curator, 8, 6)
        conflict.get_by_role("button", name="Keep mine").click()
        expect(conflict).to_be_hidden()
        wait_until_saved(curator)
        expect_turn_assigned(curator, 3, 1)

        adjudication = Adjudication.objects.get(document=document)
        expected = list(first_labels)
        expected[3], expected[8] = 1, 6
        assert adjudication.assignments == expected
        assert adjudication.version == 2
    finally:
        for context in contexts:
            context.close()


def test_the_banner_follows_completion_and_a_closed_iteration_offers_no_reopen(
    page, live_server, team, disputed
):
    from backend.iterations.services import iteration_close

    document, iteration, _ = disputed
    sign_in(page, live_server, "lead")
    open_adjudication(page, live_server, document)
    banner = page.get_by_role("region", name="Adjudication")
    expect(banner).to_contain_text("the document needs adjudication")

    page.get_by_role("button", name="Complete", exact=True).click()
    page.get_by_role("dialog", name="Complete this document?").get_by_role(
        "button", name="Complete"
    ).click()
    expect(page.get_by_test_id("save-status")).to_contain_text("Completed")
    expect(banner).to_contain_text("the document has gold (adjudicated)")
    header = page.locator(".editor-header")
    expect(header.get_by_role("button", name="Reopen")).to_be_visible()

    iteration_close(actor=team.lead, iteration=iteration, tune=False)
    page.reload()
    page.get_by_test_id("editor").wait_for()
    expect(header.get_by_role("button", name="Reopen")).to_have_count(0)
    expect(header).to_contain_text("Its iteration is closed")
    expect(banner).to_contain_text("Its iteration is closed: the gold is recorded and stays.")


def test_the_next_disagreement_is_brought_to_the_middle_of_the_list(
    page, live_server, team, disputed
):
    document, _, _ = disputed
    sign_in(page, live_server, "lead")
    open_adjudication(page, live_server, document)
    turns = page.get_by_role("listbox", name="Transcript turns")
    for index in [3, 8, 9, 25]:
        page.keyboard.press("d")
        expect_focused_turn(page, index)
    box, shown = turns.bounding_box(), turn(page, 25).bounding_box()
    middle = shown["y"] + shown["height"] / 2
    assert box["y"] + box["height"] / 4 < middle < box["y"] + 3 * box["height"] / 4, (box, shown)
