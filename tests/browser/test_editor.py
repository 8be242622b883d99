"""The annotator's editor in a real browser, on a real public_meetings meeting: corrections
by mouse and keyboard survive a reload, two windows editing at once lose nothing, and the
whole job can be done from the keyboard."""

import re

import pytest
from playwright.sync_api import expect

from backend.alignments.models import Annotation, ReadingPosition
from backend.alignments.selectors import current_pre_alignment
from backend.documents.models import Document
from tests.browser.conftest import (
    PASSWORD,
    editor_url,
    expect_focused_turn,
    expect_turn_assigned,
    go_to_turn,
    open_editor,
    sign_in,
    stored_assignments,
    turn,
    wait_until_saved,
)

UNALIGNED = -1
EN_DASH = "\N{EN DASH}"

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def pre_alignment_labels(document: Document) -> list[int]:
    return list(current_pre_alignment(document=document).labels)


def test_corrections_by_mouse_and_keyboard_survive_a_reload(
    live_server, page, team, small_document
):
    labels = pre_alignment_labels(small_document)
    # The corpus's pre-alignment starts 0,0,0,0 | 1 | 2 | 3,3 | 4,4 | 8,... ; the edits below
    # rely on these runs.
    assert labels[:11] == [0, 0, 0, 0, 1, 2, 3, 3, 4, 4, 8]
    assert labels[15:19] == [9, 10, 13, 14]
    sign_in(page, live_server)
    page.get_by_role("link", name=small_document.name).click()
    page.get_by_test_id("editor").wait_for()
    expected = list(labels)

    # Mouse: the last turn of segment 1's run goes to segment 2 (its "Assign here" button).
    turn(page, 3).click()
    page.get_by_role("button", name="Assign turn 4 to segment 2").click()
    expected[3] = 1
    # Mouse: a turn marked unaligned from the toolbar.
    turn(page, 7).click()
    page.get_by_role("toolbar").get_by_role("button", name="Unaligned").click()
    expected[7] = UNALIGNED
    # Mouse: a run of two turns, selected with Shift-click, to a segment without turns.
    turn(page, 8).click()
    turn(page, 9).click(modifiers=["Shift"])
    page.get_by_role("button", name=f"Assign turns 9{EN_DASH}10 to segment 7").click()
    expected[8] = expected[9] = 6
    for index in (3, 7, 8, 9):
        expect_turn_assigned(page, index, expected[index])

    # Keyboard: go to turn 16 and give it to the segment below.
    go_to_turn(page, 15)
    page.keyboard.press("Alt+ArrowDown")
    expected[15] = 10
    # Keyboard: two turns down, mark it unaligned.
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("u")
    expected[17] = UNALIGNED
    # Keyboard: the next turn starts segment 15's run; give it to the segment above.
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Alt+ArrowUp")
    expected[18] = 13
    for index in (15, 17, 18):
        expect_turn_assigned(page, index, expected[index])

    wait_until_saved(page)
    assert stored_assignments(small_document, team.annotator) == expected

    page.reload()
    page.get_by_test_id("editor").wait_for()
    # The editor picks up where the annotator left off.
    expect_focused_turn(page, 18)
    for index in (15, 17, 18):
        expect_turn_assigned(page, index, expected[index])
    go_to_turn(page, 3)
    for index in (3, 7, 8, 9):
        expect_turn_assigned(page, index, expected[index])
    expect(page.get_by_text("7 changed")).to_be_visible()


def test_an_edit_that_breaks_the_order_is_offered_as_a_boundary_move(
    live_server, page, team, small_document
):
    sign_in(page, live_server)
    open_editor(page, live_server, small_document)
    # Turn 2 sits inside segment 1's run: alone it cannot go to segment 2.
    turn(page, 1).click()
    page.keyboard.press("Alt+ArrowDown")
    proposal = page.get_by_role("alert")
    expect(proposal).to_contain_text("cannot go to segment 2 alone")
    expect(proposal).to_contain_text(f"turns 2{EN_DASH}4 \N{RIGHTWARDS ARROW} segment 2")
    page.keyboard.press("Enter")
    for index in (1, 2, 3):
        expect_turn_assigned(page, index, 1)
    expect_turn_assigned(page, 0, 0)

    page.keyboard.press("Control+z")
    for index in (1, 2, 3):
        expect_turn_assigned(page, index, 0)
    page.keyboard.press("Control+Shift+Z")
    expect_turn_assigned(page, 1, 1)

    # The boundary above segment 2's run (now turns 2-5) moves one turn at a time.
    page.keyboard.press("Alt+Shift+ArrowDown")
    expect_turn_assigned(page, 1, 0)
    expect_focused_turn(page, 2)
    page.keyboard.press("Alt+Shift+ArrowDown")
    expect_turn_assigned(page, 2, 0)
    page.keyboard.press("Alt+Shift+ArrowUp")
    expect_turn_assigned(page, 2, 1)

    # Any segment by its number: `a`, the number, Enter.
    go_to_turn(page, 9)
    page.keyboard.press("a")
    page.keyboard.type("7")
    page.keyboard.press("Enter")
    expect_turn_assigned(page, 9, 6)
    expect_focused_turn(page, 9)
    wait_until_saved(page)
    stored = stored_assignments(small_document, team.annotator)
    assert stored[:5] == [0, 0, 1, 1, 1]
    assert stored[9] == 6

    # From a segment, its turns are one click away.
    page.get_by_role("button", name="Select turn 10 of segment 7").click()
    expect_focused_turn(page, 9)


def test_two_windows_editing_at_once_lose_nothing(live_server, browser, team, small_document):
    first = browser.new_context(viewport={"width": 1280, "height": 800})
    second = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        windows = [context.new_page() for context in (first, second)]
        for window in windows:
            sign_in(window, live_server)
            open_editor(window, live_server, small_document)
        one, other = windows

        go_to_turn(one, 3)
        one.keyboard.press("Alt+ArrowDown")
        wait_until_saved(one)

        # The other window still has the version from before: its save is refused.
        go_to_turn(other, 7)
        other.keyboard.press("u")
        conflict = other.get_by_role("dialog", name="This document was changed elsewhere")
        expect(conflict).to_be_visible()
        expect(conflict).to_contain_text("It changed 1 turn; you have 1 unsaved change")
        expect(conflict.get_by_role("row")).to_have_count(3)
        # Each side shows only what it changed from the version both started from.
        expect(conflict.get_by_role("row", name=re.compile(r"^4 "))).to_contain_text(
            "not changed by you"
        )
        expect(conflict.get_by_role("row", name=re.compile(r"^8 "))).to_contain_text(
            "not changed there"
        )
        expect(other.get_by_test_id("save-status")).to_have_text(
            "Changed elsewhere: choose a version"
        )
        conflict.get_by_role("button", name="Keep mine").click()
        expect(conflict).to_be_hidden()
        wait_until_saved(other)
        expect_turn_assigned(other, 3, 1)
        expect_turn_assigned(other, 7, UNALIGNED)
        merged = stored_assignments(small_document, team.annotator)
        assert (merged[3], merged[7]) == (1, UNALIGNED)

        # The first window is now behind in turn; its next edit is kept the same way.
        go_to_turn(one, 9)
        one.keyboard.press("u")
        one.get_by_role("dialog").get_by_role("button", name="Keep mine").click()
        wait_until_saved(one)
        final = stored_assignments(small_document, team.annotator)
        assert (final[3], final[7], final[9]) == (1, UNALIGNED, UNALIGNED)
        assert Annotation.objects.get(document=small_document).version == 3
    finally:
        first.close()
        second.close()


def test_keyboard_only_sign_in_edit_and_submit(live_server, page, team, small_document):
    page.goto(live_server.url + "/")
    expect(page.get_by_label("Username")).to_be_focused()
    page.keyboard.type("annotator")
    page.keyboard.press("Tab")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    page.get_by_role("heading", name="Your documents").wait_for()
    # The service status is the lead's concern: an annotator's page does not wait for it.
    expect(page.get_by_test_id("health")).to_have_count(0)
    document_link = page.get_by_role("link", name=small_document.name)
    for _ in range(10):
        page.keyboard.press("Tab")
        if document_link.evaluate("link => link === document.activeElement"):
            break
    else:
        pytest.fail("Tab never reached the document's link")
    page.keyboard.press("Enter")
    page.get_by_test_id("editor").wait_for()
    assert page.url == editor_url(live_server, small_document)

    page.keyboard.press("?")
    help_dialog = page.get_by_role("dialog", name="Keyboard shortcuts")
    expect(help_dialog).to_contain_text("Submit the document")
    page.keyboard.press("Escape")
    expect(help_dialog).to_be_hidden()

    # Time is counted while the annotator works; a second of it goes with the save.
    page.wait_for_timeout(1500)
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Alt+ArrowDown")
    expect_turn_assigned(page, 3, 1)
    page.keyboard.press("Control+s")
    wait_until_saved(page)

    page.keyboard.press("Control+Enter")
    submit_dialog = page.get_by_role("dialog", name="Submit this document?")
    expect(submit_dialog).to_contain_text("1 turn changed")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("save-status")).to_contain_text("Submitted")
    # Keys reach the editor only once the dialog has closed, a render after the status.
    expect(submit_dialog).to_be_hidden()

    annotation = Annotation.objects.get(document=small_document, annotator=team.annotator)
    assert annotation.submitted_at is not None
    assert annotation.seconds_spent >= 1
    assert annotation.assignments[3] == 1
    small_document.refresh_from_db()
    assert small_document.status == Document.Status.SUBMITTED
    page.keyboard.press("u")
    expect(page.get_by_role("alert")).to_contain_text("submitted")

    # Submitted too early: reopen, correct, and the save goes through again.
    page.get_by_role("button", name="Reopen").click()
    expect(page.get_by_role("alert")).to_contain_text("Reopened")
    page.keyboard.press("u")
    page.keyboard.press("Control+s")
    wait_until_saved(page)
    annotation.refresh_from_db()
    assert annotation.submitted_at is None
    assert annotation.assignments[3] == -1
    expect(page.get_by_role("button", name="Submit")).to_be_enabled()


def test_edits_made_offline_are_kept_and_saved_once_back_online(
    live_server, page, team, small_document
):
    sign_in(page, live_server)
    open_editor(page, live_server, small_document)
    page.context.set_offline(True)
    go_to_turn(page, 3)
    page.keyboard.press("Alt+ArrowDown")
    expect(page.get_by_test_id("save-status")).to_contain_text("Offline")
    expect_turn_assigned(page, 3, 1)
    assert not Annotation.objects.filter(document=small_document).exists()

    page.context.set_offline(False)
    wait_until_saved(page)
    assert stored_assignments(small_document, team.annotator)[3] == 1


def test_unsaved_edits_survive_a_reload_while_the_server_cannot_take_them(
    live_server, page, team, small_document
):
    sign_in(page, live_server)
    open_editor(page, live_server, small_document)
    page.route("**/annotation/", lambda route: route.abort())
    go_to_turn(page, 3)
    page.keyboard.press("Alt+ArrowDown")
    expect(page.get_by_test_id("save-status")).to_contain_text("Offline")

    page.unroute("**/annotation/")
    page.on("dialog", lambda dialog: dialog.accept())
    page.reload()
    page.get_by_test_id("editor").wait_for()
    expect(page.get_by_role("alert")).to_contain_text("Restored 1 unsaved change")
    wait_until_saved(page)
    expect_turn_assigned(page, 3, 1)
    assert stored_assignments(small_document, team.annotator)[3] == 1


def test_edits_kept_in_the_browser_meet_a_newer_version_as_a_conflict(
    live_server, browser, team, small_document
):
    first = browser.new_context(viewport={"width": 1280, "height": 800})
    second = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        stranded, elsewhere = first.new_page(), second.new_page()
        for window in (stranded, elsewhere):
            sign_in(window, live_server)
            open_editor(window, live_server, small_document)
        stranded.route("**/annotation/", lambda route: route.abort())
        go_to_turn(stranded, 3)
        stranded.keyboard.press("Alt+ArrowDown")
        expect(stranded.get_by_test_id("save-status")).to_contain_text("Offline")

        go_to_turn(elsewhere, 7)
        elsewhere.keyboard.press("u")
        wait_until_saved(elsewhere)

        stranded.unroute("**/annotation/")
        stranded.on("dialog", lambda dialog: dialog.accept())
        stranded.reload()
        conflict = stranded.get_by_role("dialog", name="This document was changed elsewhere")
        expect(conflict).to_contain_text("It changed 1 turn; you have 1 unsaved change")
        conflict.get_by_role("button", name="Keep mine").click()
        wait_until_saved(stranded)
        merged = stored_assignments(small_document, team.annotator)
        assert (merged[3], merged[7]) == (1, UNALIGNED)
    finally:
        first.close()
        second.close()


def test_another_browser_opens_the_document_where_the_annotator_left_off(
    live_server, browser, team, small_document
):
    """The position goes to the server, not only to this browser's storage."""
    first = browser.new_context(viewport={"width": 1280, "height": 800})
    second = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        laptop = first.new_page()
        sign_in(laptop, live_server)
        open_editor(laptop, live_server, small_document)
        with laptop.expect_response(
            lambda response: response.url.endswith("/position/") and response.status == 204
        ):
            go_to_turn(laptop, 41)
        assert ReadingPosition.objects.get(document=small_document, user=team.annotator).turn == 41

        office = second.new_page()
        sign_in(office, live_server)
        open_editor(office, live_server, small_document)
        expect_focused_turn(office, 41)
    finally:
        first.close()
        second.close()
