"""The lead sets the probability below which the editor marks a turn low-confidence (and may
switch off learning from gold); the annotator's editor marks exactly the turns below it."""

import pytest
from playwright.sync_api import expect

from backend.projects.models import Project
from tests.browser.conftest import open_editor, pre_align_on_the_worker, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

THRESHOLD = 0.6


def test_the_leads_threshold_decides_which_turns_the_editor_marks(
    live_server, page, team, small_document, celery_worker_process
):
    confidences = pre_align_on_the_worker(team, small_document)
    doubtful = [value for value in confidences if value < THRESHOLD]
    assert 0 < len(doubtful) < len(confidences)

    sign_in(page, live_server, "lead")
    page.goto(f"{live_server.url}/lead/projects/{team.project.pk}")
    page.get_by_label("Low confidence below").fill(str(THRESHOLD))
    page.get_by_role("button", name="Save project").click()
    expect(page.get_by_role("status")).to_have_text("Saved.")
    assert Project.objects.get(pk=team.project.pk).settings == {"low_confidence_below": THRESHOLD}
    learning = page.get_by_label("Learn from gold at each tuning run")
    expect(learning).to_be_checked()
    learning.uncheck()
    with page.expect_response(lambda response: response.request.method == "PATCH") as saved:
        page.get_by_role("button", name="Save project").click()
    assert saved.value.ok
    assert Project.objects.get(pk=team.project.pk).settings == {
        "low_confidence_below": THRESHOLD,
        "learned_decision": False,
    }

    page.context.clear_cookies()
    sign_in(page, live_server)
    open_editor(page, live_server, small_document)
    expect(page.get_by_text(f"{len(doubtful)} low confidence")).to_be_visible()
