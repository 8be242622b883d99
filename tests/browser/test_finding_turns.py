"""Where to look: low-confidence and changed turns are marked and can be stepped through,
both texts can be searched, and turns and segments reached by number. The test also takes
the README's screenshot (set TANDEM_UPDATE_SCREENSHOTS=1 to rewrite it)."""

import os
import re
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import expect

from backend.alignments.selectors import DEFAULT_LOW_CONFIDENCE, current_pre_alignment
from tests.browser.conftest import (
    expect_focused_turn,
    open_editor,
    pre_align_on_the_worker,
    sign_in,
    turn,
    wait_until_saved,
)

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

LOW_CONFIDENCE = DEFAULT_LOW_CONFIDENCE
"""The editor's threshold in a project that sets none."""
SCREENSHOT = Path(settings.BASE_DIR) / "docs" / "screenshots" / "editor.png"


def test_low_confidence_and_changed_turns_search_and_go_to(
    live_server, page, team, small_document, tmp_path, celery_worker_process
):
    confidences = pre_align_on_the_worker(team, small_document)
    doubtful = [index for index, value in enumerate(confidences) if value < LOW_CONFIDENCE]
    assert len(doubtful) >= 2
    sign_in(page, live_server)
    open_editor(page, live_server, small_document)
    expect(page.get_by_text(f"{len(doubtful)} low confidence")).to_be_visible()

    page.keyboard.press("n")
    expect_focused_turn(page, doubtful[0])
    expect(turn(page, doubtful[0])).to_have_accessible_name(re.compile("low confidence"))
    page.keyboard.press("n")
    expect_focused_turn(page, doubtful[1])
    page.keyboard.press("Shift+N")
    expect_focused_turn(page, doubtful[0])

    page.keyboard.press("u")
    expect(turn(page, doubtful[0])).to_have_accessible_name(re.compile("changed"))
    page.keyboard.press("g")
    page.keyboard.type("40")
    page.keyboard.press("Enter")
    expect_focused_turn(page, 39)
    page.keyboard.press("c")
    expect_focused_turn(page, doubtful[0])

    page.keyboard.press("/")
    expect(page.get_by_role("searchbox", name="Search")).to_be_focused()
    page.keyboard.type("géolocalisation")
    expect(page.locator("#search-count")).to_have_text(
        re.compile(r"\d+ turns?, [1-9]\d* segments?")
    )
    page.keyboard.press("Enter")
    expect(page.locator("mark").first).to_be_visible()

    page.get_by_label("Go to").fill("§30")
    page.get_by_label("Go to").press("Enter")
    expect(page.locator("#segment-29")).to_be_in_viewport()
    # With the panes scrolling together, going to a segment selects its first turn.
    labels = list(current_pre_alignment(document=small_document).labels)
    labels[doubtful[0]] = -1  # unaligned above
    target = next(label for label in labels[45:] if label >= 0)
    page.get_by_label("Go to").fill(f"§{target + 1}")
    page.get_by_label("Go to").press("Enter")
    expect_focused_turn(page, labels.index(target))

    page.get_by_label("Go to").fill("18")
    page.get_by_label("Go to").press("Enter")
    page.keyboard.press("Shift+ArrowDown")
    page.keyboard.press("Shift+ArrowDown")
    page.locator("#search-input").fill("")
    page.keyboard.press("Escape")
    wait_until_saved(page)
    shot = tmp_path / "editor.png"
    page.screenshot(path=shot)
    if os.environ.get("TANDEM_UPDATE_SCREENSHOTS") == "1":
        SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
        SCREENSHOT.write_bytes(shot.read_bytes())
