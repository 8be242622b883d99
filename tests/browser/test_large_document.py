"""The largest public_meetings meeting opens, scrolls end to end and takes edits with both
lists virtualised: only what is on screen is in the DOM. Speed is not asserted here: the test
measures it, and `bench/editor_speed.py` runs it and prints the figures as JSON (the test
writes them to $TANDEM_EDITOR_BENCH_JSON when that is set)."""

import json
import os
import statistics
import time
from pathlib import Path

import pytest

from backend.alignments.services.pre_alignments import (
    parameter_set_get_or_create,
    pre_alignment_record,
)
from tests.browser.conftest import (
    LARGEST_MEETING,
    editor_url,
    expect_turn_assigned,
    go_to_turn,
    import_meeting,
    sign_in,
    stored_assignments,
    turn,
    wait_until_saved,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

UNALIGNED = -1
LOADS = 5
MAX_RENDERED_ITEMS = 60

# Scrolls the transcript from top to bottom one step per frame and returns frame durations.
SCROLL_THROUGH = """async (step) => {
  const pane = document.querySelector('[data-testid="turn-list"]');
  const frames = [];
  let last = performance.now();
  while (pane.scrollTop + pane.clientHeight < pane.scrollHeight - 1) {
    pane.scrollTop += step;
    await new Promise(requestAnimationFrame);
    const now = performance.now();
    frames.push(now - last);
    last = now;
  }
  return frames;
}"""

# Presses a key on the editor and waits for the frame that shows the result.
KEY_TO_PAINT = """async (key) => {
  const start = performance.now();
  window.dispatchEvent(new KeyboardEvent("keydown", {key, bubbles: true}));
  await new Promise(requestAnimationFrame);
  return performance.now() - start;
}"""


@pytest.fixture
def largest_document(team):
    """The meeting as imported, with a diagonal pre-alignment and varied confidences, so
    that bands, boundaries and low-confidence marks are all on screen."""
    document = import_meeting(team, LARGEST_MEETING)
    turns, segments = document.turn_count, document.segment_count
    pre_alignment_record(
        document=document,
        parameter_set=parameter_set_get_or_create(
            project=team.project, name="diagonal", params={"aligner": "diagonal"}, engine_version=""
        ),
        labels=[turn * segments // turns for turn in range(turns)],
        confidences=[(turn * 37 % 100) / 100 for turn in range(turns)],
    )
    return document


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def test_largest_meeting_opens_scrolls_and_edits_with_virtualised_lists(
    live_server, page, team, largest_document
):
    assert largest_document.turn_count > 800
    sign_in(page, live_server)
    url = editor_url(live_server, largest_document)

    seconds = []
    for _ in range(LOADS):
        page.goto(live_server.url + "/")
        page.get_by_role("heading", name="Your documents").wait_for()
        started = time.perf_counter()
        page.goto(url)
        turn(page, 0).wait_for()
        page.locator("#segment-0").wait_for()
        seconds.append(time.perf_counter() - started)

    rendered_turns = page.get_by_role("option").count()
    rendered_segments = page.get_by_role("listitem").count()
    assert 0 < rendered_turns < MAX_RENDERED_ITEMS
    assert 0 < rendered_segments < MAX_RENDERED_ITEMS

    frames = page.evaluate(SCROLL_THROUGH, 120)
    turn(page, largest_document.turn_count - 1).wait_for()
    assert page.get_by_role("option").count() < MAX_RENDERED_ITEMS

    go_to_turn(page, 400)
    edits, moves = [], []
    for _ in range(10):
        edits.append(page.evaluate(KEY_TO_PAINT, "u"))
        moves.append(page.evaluate(KEY_TO_PAINT, "ArrowDown"))
    expect_turn_assigned(page, 409, UNALIGNED)
    wait_until_saved(page)
    assert stored_assignments(largest_document, team.annotator)[400:410] == [UNALIGNED] * 10

    figures = {
        "turns": largest_document.turn_count,
        "segments": largest_document.segment_count,
        "usable_editor_seconds": {"median": statistics.median(seconds), "runs": seconds},
        "rendered": {"turns": rendered_turns, "segments": rendered_segments},
        "scroll_frame_ms": {
            "frames": len(frames),
            "median": statistics.median(frames),
            "p95": percentile(frames, 0.95),
            "max": max(frames),
        },
        "key_to_paint_ms": {
            "edit_median": statistics.median(edits),
            "next_turn_median": statistics.median(moves),
        },
    }
    print(json.dumps(figures))
    if os.environ.get("TANDEM_EDITOR_BENCH_JSON"):
        Path(os.environ["TANDEM_EDITOR_BENCH_JSON"]).write_text(json.dumps(figures))
