"""The lead's main pages and the editor by keyboard alone: Tab and Shift+Tab to reach every
control used (each stop on the way shows where the focus is), Enter and Space to act, arrows
in radio groups, selects, number fields and the transcript. The lead signs in, adds a curator,
reads an annotator's work in the editor, opens an iteration and cancels it through its
confirmation, filters the export and asks the rating-study form for its refusals."""

import re

import pytest
from django.contrib.auth import get_user_model

from backend.iterations.models import Iteration
from tests.browser.conftest import PASSWORD, expect_focused_turn, go_to_turn

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TAB_STOPS_LIMIT = 120

FOCUS_SHOWN = """() => {
  const focused = document.activeElement;
  // Past the last control the focus leaves the page (the browser's own controls) for a stop.
  if (focused === null || focused === document.body) return null;
  // A control hidden for looks (a file input inside its label) shows its focus on the label.
  const shown = focused.closest("label") ?? focused;
  for (const element of new Set([focused, shown])) {
    const style = getComputedStyle(element);
    const box = element.getBoundingClientRect();
    const ring = (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0)
      || style.boxShadow !== "none";
    if (ring && box.width > 2 && box.height > 2) return null;
  }
  return focused.outerHTML.slice(0, 160);
}"""

TARGET_PRECEDES_FOCUS = """(target) => {
  const focused = document.activeElement;
  return focused !== null && focused !== document.body && focused !== target
    && Boolean(target.compareDocumentPosition(focused) & Node.DOCUMENT_POSITION_FOLLOWING);
}"""


def tab_to(page, target) -> None:
    """Tab (Shift+Tab when `target` comes before the focus) until `target` has the focus;
    fails when it is never reached, or when a stop on the way does not show its focus."""
    if target.evaluate("target => target === document.activeElement"):
        return
    key = "Shift+Tab" if target.evaluate(TARGET_PRECEDES_FOCUS) else "Tab"
    unseen = []
    for _ in range(TAB_STOPS_LIMIT):
        page.keyboard.press(key)
        hidden_focus = page.evaluate(FOCUS_SHOWN)
        if hidden_focus is not None:
            unseen.append(hidden_focus)
        if target.evaluate("target => target === document.activeElement"):
            break
    else:
        pytest.fail(f"{key} never reached {target}")
    assert not unseen, "focus not shown on:\n" + "\n".join(unseen)


def press_on(page, target, key: str = "Enter") -> None:
    tab_to(page, target)
    page.keyboard.press(key)


def test_the_lead_uses_the_main_pages_and_the_editor_by_keyboard_alone(
    page, live_server, team, small_document
):
    from playwright.sync_api import expect

    get_user_model().objects.create_user("curator", password=PASSWORD)
    page.goto(live_server.url + "/")
    expect(page.get_by_label("Username")).to_be_focused()
    page.keyboard.type("lead")
    page.keyboard.press("Tab")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    page.get_by_role("heading", name="Your documents").wait_for()

    press_on(page, page.get_by_role("link", name="Projects you lead"))
    expect(page.get_by_role("heading", name="Projects you lead")).to_be_visible()
    press_on(page, page.get_by_role("link", name="Public meetings"))

    # Members: a curator added with the role chosen by arrow.
    invite = page.get_by_role("form", name="Add a member")
    tab_to(page, invite.get_by_label("Username"))
    page.keyboard.type("curator")
    tab_to(page, invite.get_by_label("as"))
    page.keyboard.press("ArrowDown")
    expect(invite.get_by_label("as")).to_have_value("curator")
    press_on(page, invite.get_by_role("button", name="Add member"))
    expect(page.get_by_label("Role of curator")).to_have_value("curator")

    # The annotator's work, read in the editor.
    tabs = page.get_by_role("navigation", name="Project pages")
    press_on(page, tabs.get_by_role("link", name="Documents"))
    press_on(page, page.get_by_role("link", name=small_document.name))
    page.get_by_test_id("editor").wait_for()
    turns = page.get_by_role("listbox", name="Transcript turns")
    tab_to(page, turns)
    page.keyboard.press("ArrowDown")
    expect_focused_turn(page, 1)
    go_to_turn(page, 20)
    press_on(page, page.get_by_role("link", name=re.compile("^← ")))
    expect(page.get_by_role("table", name="All documents")).to_be_visible()

    # An iteration opened from the form and cancelled through its confirmation.
    press_on(page, tabs.get_by_role("link", name="Iterations"))
    tab_to(page, page.get_by_role("radio", name=re.compile("^the shipped defaults")))
    page.keyboard.press("ArrowDown")
    expect(page.get_by_role("radio", name=re.compile("^the diagonal aligner"))).to_be_checked()
    press_on(page, page.get_by_label(f"Put {small_document.name} in the batch"), " ")
    press_on(page, page.get_by_role("button", name="Open iteration 1 with 1 document"))
    expect(page.get_by_role("heading", name=re.compile("^Iteration 1"))).to_be_visible()
    iteration = Iteration.objects.get(project=team.project, number=1)
    assert iteration.parameters["params"]["aligner"] == "diagonal"
    press_on(page, page.get_by_role("button", name="Cancel the iteration…"))
    dialog = page.get_by_role("dialog", name="Cancel iteration 1?")
    press_on(page, dialog.get_by_role("button", name="Cancel the iteration"))
    expect(page.get_by_test_id("cancelled-note")).to_be_visible()

    # The export's filters.
    press_on(page, tabs.get_by_role("link", name="Exports"))
    press_on(page, page.get_by_label("include automatic pairs"), " ")
    confidence = page.get_by_label("with confidence at least")
    tab_to(page, confidence)
    page.keyboard.press("ArrowUp")
    expect(confidence).to_have_value("0.95")

    # The rating-study form's refusals.
    press_on(page, tabs.get_by_role("link", name="Rating studies"))
    form = page.get_by_role("form", name="New rating study")
    press_on(page, form.get_by_role("button", name="Create the study"))
    expect(form.locator("#study-name-error")).to_be_visible()
