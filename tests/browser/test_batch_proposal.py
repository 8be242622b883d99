"""The lead lets Tandem propose the next batch in the open-iteration form: by the engine's
uncertainty, the proposal lists the documents with the wrong turns it expects in each and
names the one it cannot rank; the lead takes it into the form and edits it there."""

import re

import pytest

from backend.alignments.models import PreAlignment
from tests.browser.conftest import sign_in
from tests.domain import evenly, make_document

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TURNS = 10
ANSWER_TIMEOUT_MS = 30_000
"""The machine the suite runs on may be busy; the proposal is one request."""


def pre_aligned(team, name: str, confidence: float):
    document = make_document(team.project, name=name, turns=TURNS, pre_alignment=evenly(TURNS, 4))
    # Not all equal: confidences that are all alike rank nothing (the proposal says so).
    PreAlignment.objects.filter(document=document).update(
        confidences=[confidence] * (TURNS - 1) + [confidence + 0.02]
    )
    return document


def test_lead_takes_the_uncertainty_proposal_into_the_batch_and_edits_it(page, live_server, team):
    from playwright.sync_api import expect

    sure = pre_aligned(team, "sure meeting", 0.95)
    unsure = pre_aligned(team, "unsure meeting", 0.3)
    middling = pre_aligned(team, "middling meeting", 0.7)
    new = make_document(team.project, name="new meeting", turns=TURNS)
    sign_in(page, live_server, "lead")
    page.goto(f"{live_server.url}/lead/projects/{team.project.pk}/iterations")

    page.get_by_label("Documents").fill("2")
    page.get_by_label("chosen").select_option("uncertainty")
    page.get_by_role("button", name="Propose").click()

    expect(page.get_by_test_id("batch-proposal")).to_be_visible(timeout=ANSWER_TIMEOUT_MS)
    proposed = page.get_by_role("list", name="Proposed batch").get_by_role("listitem")
    expect(proposed).to_have_count(2)
    expect(proposed.nth(0)).to_have_text(
        f"{unsure.name}: expected 7 wrong turns of {TURNS} (mean confidence 0.30)"
    )
    expect(proposed.nth(1)).to_have_text(
        f"{middling.name}: expected 3 wrong turns of {TURNS} (mean confidence 0.70)"
    )
    expect(page.get_by_test_id("unranked")).to_contain_text(f"{new.name} (no pre-alignment yet)")

    page.get_by_role("button", name="Use this proposal").click()
    expect(page.get_by_label(f"Put {unsure.name} in the batch")).to_be_checked()
    expect(page.get_by_label(f"Put {middling.name} in the batch")).to_be_checked()
    expect(page.get_by_label(f"Put {sure.name} in the batch")).not_to_be_checked()
    page.get_by_label(f"Put {middling.name} in the batch").uncheck()
    page.get_by_label(f"Put {new.name} in the batch").check()
    expect(page.get_by_role("button", name=re.compile("^Open iteration 1 with"))).to_have_text(
        "Open iteration 1 with 2 documents"
    )
