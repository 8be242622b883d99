"""An open iteration never traps the lead: taking out its last document asks first, an emptied
iteration is filled again from the page, and an iteration is cancelled from the page, after
which the next one opens with the shipped defaults, the first batch's default. Real meetings,
the real worker."""

import re

import pytest

from backend.alignments.models import PreAlignment
from backend.iterations.models import Iteration
from tests.browser.conftest import sign_in
from tests.browser.lead_builders import import_meetings

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

MEETINGS = [
    "686239f069621dada25c3408f1867d66",  # 33 turns
    "0b9ec6f049e68d4a35fae75792e2a84e",  # 60 turns
]
JOB_TIMEOUT_MS = 120_000


def test_lead_empties_refills_and_cancels_an_iteration(
    page, live_server, celery_worker_process, team
):
    from playwright.sync_api import expect

    first, second = import_meetings(team, MEETINGS)
    sign_in(page, live_server, "lead")
    page.goto(f"{live_server.url}/lead/projects/{team.project.pk}/iterations")
    page.get_by_label(f"Put {first.name} in the batch").check()
    assert not first.assignees.exists()
    expect(page.get_by_test_id("unassigned-warning")).to_contain_text(
        f"{first.name} has no annotator: nobody will correct it until you assign someone"
    )
    page.get_by_role("radio", name=re.compile("^the diagonal aligner")).check()
    page.get_by_role("button", name="Open iteration 1 with 1 document").click()
    status = page.get_by_test_id("iteration-status")
    expect(status).to_have_text("Annotating", timeout=JOB_TIMEOUT_MS)
    batch = page.get_by_test_id("batch-document")

    batch.get_by_role("button", name="Take out of the iteration").click()
    confirm = page.get_by_role("dialog", name="Take out the last document?")
    expect(confirm).to_contain_text("add others to it, or cancel it")
    confirm.get_by_role("button", name="Keep it").click()
    expect(batch).to_have_count(1)
    batch.get_by_role("button", name="Take out of the iteration").click()
    confirm.get_by_role("button", name="Take it out").click()
    expect(batch).to_have_count(0)

    adding = page.get_by_role("form", name="Add documents to iteration 1")
    adding.get_by_label(second.name).check()
    adding.get_by_label(first.name).check()
    adding.get_by_role("button", name="Add and pre-align").click()
    expect(page.get_by_role("status")).to_contain_text("2 documents added")
    expect(batch).to_have_count(2)
    expect(status).to_have_text("Annotating", timeout=JOB_TIMEOUT_MS)
    iteration = Iteration.objects.get(project=team.project, number=1)
    assert set(
        PreAlignment.objects.filter(parameter_set=iteration.parameter_set).values_list(
            "document__name", flat=True
        )
    ) == {first.name, second.name}

    page.get_by_role("button", name="Cancel the iteration…").click()
    cancel = page.get_by_role("dialog", name="Cancel iteration 1?")
    expect(cancel).to_contain_text("Its 2 documents go back to the project")
    cancel.get_by_role("button", name="Cancel the iteration").click()
    expect(status).to_have_text("Cancelled")
    expect(page.get_by_test_id("cancelled-note")).to_contain_text("its 2 documents went back")
    expect(batch).to_have_count(0)
    expect(page.get_by_role("button", name="Cancel the iteration…")).to_have_count(0)

    page.get_by_role("link", name="All iterations").click()
    expect(
        page.get_by_role("table", name="Iterations").get_by_role("row", name="#1")
    ).to_contain_text("Cancelled")
    # A cancelled iteration used nothing: the next one is again the first to choose, and
    # keeps the shipped defaults, for which the worker trains word vectors first.
    expect(page.get_by_role("radio", name=re.compile("^the shipped defaults"))).to_be_checked()
    page.get_by_label(f"Put {second.name} in the batch").check()
    page.get_by_role("button", name="Open iteration 2 with 1 document").click()
    expect(status).to_have_text("Annotating", timeout=JOB_TIMEOUT_MS)
    reopened = Iteration.objects.get(project=team.project, number=2)
    assert reopened.documents.get() == second
    assert reopened.parameter_set.name == "shipped defaults"
    assert PreAlignment.objects.filter(
        document=second, parameter_set=reopened.parameter_set
    ).exists()
