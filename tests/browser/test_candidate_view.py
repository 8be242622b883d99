"""The candidate view a lead decides from, after a real tuning run on the real worker over
real meetings: at 1400x900 the page scrolls inside its main area with the app bar in place;
the parameters in use and the proposal come first, each figure with its spread across the
gold documents; settings the gold cannot tell apart share one row with their count; only
the settings that differ from the parameters in use are named; promoting asks first, and the
page's verdict says what was promoted. With TANDEM_UPDATE_SCREENSHOTS=1, saves
docs/screenshots/candidates.png."""

import os
import re
import statistics
from pathlib import Path

import pytest

from backend.tuning.models import TuningSlice
from tests.browser.accessibility import assert_accessible
from tests.browser.conftest import PASSWORD, fit_window_to
from tests.browser.lead_builders import closed_iteration, import_meetings
from workers.align.metrics import MeetingScores

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

MEETINGS = [
    "686239f069621dada25c3408f1867d66",  # 33 turns
    "0b9ec6f049e68d4a35fae75792e2a84e",  # 60 turns
]
TIED_GRID = {
    "aligner": ["gapped"],
    "scoring.method": ["tfidf"],
    "gapped.match_offset": [0.25, 0.45],
    "scoring.lsa_components": [50, 100, 200],
}
"""Six settings in two groups of three: tf-idf scoring makes no LSA, so its number of
components changes nothing and each match offset's three settings tie."""
SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "candidates.png"


def segment_spread(run, index: int) -> float:
    """The standard deviation of a candidate's per-document segment accuracy, from the
    slices' stored per-document scores."""
    per_document = {}
    for results in TuningSlice.objects.filter(run=run).values_list("results", flat=True):
        for item in results:
            if item["candidate"] == index:
                for meeting, scores in item["per_document"]:
                    per_document[meeting] = MeetingScores(**scores).segment_accuracy
    return statistics.stdev(per_document.values())


def test_a_lead_decides_from_the_incumbent_and_the_proposal_and_promotes_after_confirming(
    browser, live_server, celery_worker_process, team, tmp_path
):
    from playwright.sync_api import expect

    first, second = import_meetings(team, MEETINGS)
    iteration = closed_iteration(team, {first: (3, 60), second: (0, 30)}, grid=TIED_GRID)
    run = iteration.tuning_run
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    try:
        page = context.new_page()
        page.goto(live_server.url + "/")
        page.get_by_label("Username").fill("lead")
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Sign in").click()
        page.get_by_role("heading", name="Your documents").wait_for()
        page.goto(f"{live_server.url}/lead/projects/{team.project.pk}/iterations/{iteration.pk}")
        candidates = page.get_by_role("table", name="Tuning candidates")
        expect(candidates).to_be_visible()

        # The page scrolls inside its main area: nothing lengthens the window, and scrolled
        # to the bottom the app bar is still at the top.
        assert page.evaluate("document.scrollingElement.scrollHeight") <= 900
        page.locator(".app > main").evaluate("main => main.scrollTo(0, main.scrollHeight)")
        bar = page.locator(".app-bar").bounding_box()
        assert bar is not None
        assert bar["y"] == 0
        expect(page.get_by_role("link", name="API tokens")).to_be_in_viewport()
        page.locator(".app > main").evaluate("main => main.scrollTo(0, 0)")
        # The closed batch's table, accuracy columns and all, fits the page's width.
        assert page.locator(".app > main").evaluate("main => main.scrollWidth <= main.clientWidth")

        decision = page.get_by_role("table", name="Parameters in use and proposal")
        incumbent = run.incumbent_candidate
        in_use = decision.get_by_test_id("decision-incumbent")
        expect(in_use).to_contain_text(f"In use: {run.incumbent_name}")
        expect(in_use).to_contain_text(
            f"{incumbent.segment_accuracy:.1f}% ± {segment_spread(run, incumbent.index):.1f}"
        )
        expect(decision.get_by_test_id("decision-proposal")).to_be_visible()

        groups: dict[tuple, list] = {}
        for candidate in run.candidates.exclude(is_incumbent=True).order_by("rank", "index"):
            key = (candidate.segment_accuracy, candidate.word_accuracy, candidate.window_diff)
            groups.setdefault(key, []).append(candidate)
        sizes = [len(group) for group in groups.values()]
        assert max(sizes) >= 3, "LSA components change nothing with tf-idf: their settings tie"
        rows = candidates.get_by_test_id("candidate")
        expect(rows).to_have_count(len(sizes) + 1)
        for size in set(sizes) - {1}:
            expect(rows.filter(has_text=f"{size} settings tie on these figures")).to_have_count(
                sizes.count(size)
            )
        rows.get_by_text(f"{max(sizes)} settings tie on these figures").first.click()
        expect(candidates).not_to_contain_text("window_size")
        expect(candidates).to_contain_text(
            f"aligner gapped (in use: {incumbent.params['aligner']})"
        )
        shot = tmp_path / "candidates.png"
        fit_window_to(page, page.locator(".candidates"))
        page.locator(".candidates").screenshot(path=shot)
        if os.environ.get("TANDEM_UPDATE_SCREENSHOTS") == "1":
            SCREENSHOT.write_bytes(shot.read_bytes())
        assert_accessible(page, "the candidate view")

        best = run.candidates.exclude(is_incumbent=True).order_by("rank", "index").first()
        page.get_by_role(
            "button", name=f"Promote candidate ranked {best.rank} (setting {best.index})"
        ).click()
        confirm = page.get_by_role("dialog", name=f"Promote the candidate ranked {best.rank}?")
        expect(confirm).to_contain_text(f"instead of {run.incumbent_name}")
        confirm.get_by_role("button", name="Keep the parameters in use").click()
        team.project.refresh_from_db()
        assert team.project.promoted_parameter_set is None or (
            team.project.promoted_parameter_set.params != best.params
        )
        page.get_by_role(
            "button", name=f"Promote candidate ranked {best.rank} (setting {best.index})"
        ).click()
        confirm.get_by_role("button", name="Promote it").click()
        expect(page.get_by_role("status")).to_contain_text("promoted.")
        expect(page.get_by_test_id("tuning-verdict")).to_contain_text(
            re.compile(r"is promoted: the project pre-aligns with it now")
        )
        team.project.refresh_from_db()
        assert team.project.promoted_parameter_set.params == best.params
    finally:
        context.close()
