"""Pages a lead looks for, in the app rather than the REST framework's: the corpus export
(counts per filter, a download per format), deleting a document, API tokens, and the help
the top bar links to. Real meetings, the real worker."""

import re

import pytest

from backend.documents.models import Document
from backend.exports.selectors import export_preview
from tests.browser.conftest import sign_in
from tests.browser.lead_builders import closed_iteration, import_meetings, pre_aligned_iteration
from workers.align.pairs.options import ExportOptions

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

MEETINGS = [
    "686239f069621dada25c3408f1867d66",  # 33 turns
    "0b9ec6f049e68d4a35fae75792e2a84e",  # 60 turns
    "2f3f95e2eb2b4532169904b186a8cdf0",  # 65 turns
]


def test_lead_exports_deletes_a_document_and_manages_tokens(
    page, live_server, celery_worker_process, team
):
    from playwright.sync_api import expect

    gold, automatic, doomed = import_meetings(team, MEETINGS)
    closed_iteration(team, {gold: (3, 60)})
    pre_aligned_iteration(team, [automatic])
    sign_in(page, live_server, "lead")
    page.goto(f"{live_server.url}/lead")
    expect(page.get_by_test_id("health")).to_contain_text("database reachable")
    page.goto(f"{live_server.url}/lead/projects/{team.project.pk}")
    page.get_by_role("link", name="Exports").click()

    gold_only = export_preview(project_id=team.project.pk, options=ExportOptions())["pairs"]
    assert gold_only["total"] > 0
    exported = page.get_by_test_id("exported-pairs")
    expect(exported).to_have_text(f"{gold_only['total']} ({gold_only['gold']} gold, 0 automatic)")
    jsonl = page.get_by_role("link", name="Pairs, JSON lines")
    expect(jsonl).to_have_attribute("href", re.compile(r"pairs\.jsonl\?include_automatic=false"))
    download = page.request.get(live_server.url + jsonl.get_attribute("href"))
    assert download.status == 200
    assert len(download.text().splitlines()) == gold_only["total"]

    page.get_by_label("include automatic pairs").check()
    page.get_by_label("with confidence at least").fill("0")
    with_automatic = export_preview(
        project_id=team.project.pk, options=ExportOptions(include_automatic=True)
    )["pairs"]
    assert with_automatic["automatic"] > 0
    expect(exported).to_contain_text(f"{with_automatic['automatic']} automatic")
    expect(jsonl).to_have_attribute("href", re.compile(r"include_automatic=true&min_confidence=0$"))

    page.get_by_role("link", name="Documents").click()
    rows = page.get_by_test_id("lead-document-row")
    expect(rows).to_have_count(3)
    page.get_by_role("button", name=f"Delete {doomed.name}").click()
    confirm = page.get_by_role("dialog", name=f"Delete {doomed.name}?")
    confirm.get_by_role("button", name="Delete it").click()
    expect(rows).to_have_count(2)
    assert not Document.objects.filter(pk=doomed.pk).exists()
    assert Document.objects.filter(pk=automatic.pk).exists()

    page.get_by_role("link", name="API tokens").click()
    page.get_by_label("Name").fill("export script")
    page.get_by_role("button", name="Create a token").click()
    shown = page.get_by_test_id("new-token")
    expect(shown).to_contain_text("Copy its key now")
    key = shown.locator("code").inner_text()
    api = f"{live_server.url}/api/v1/projects/{team.project.pk}/exports/preview/"
    headers = {"Authorization": f"Token {key}"}
    anonymous = page.context.browser.new_context()
    try:
        assert anonymous.request.get(api, headers=headers).status == 200
        page.get_by_role("button", name="Revoke export script").click()
        confirm = page.get_by_role("dialog", name="Revoke export script?")
        confirm.get_by_role("button", name="Keep it").click()
        assert anonymous.request.get(api, headers=headers).status == 200
        page.get_by_role("button", name="Revoke export script").click()
        confirm.get_by_role("button", name="Revoke it").click()
        expect(page.get_by_role("table", name="Your API tokens")).not_to_contain_text(
            "export script"
        )
        assert anonymous.request.get(api, headers=headers).status == 401
    finally:
        anonymous.close()

    page.get_by_role("link", name="Help", exact=True).click()
    page.get_by_role("navigation", name="Help pages").get_by_role(
        "link", name=re.compile("^Leading a project")
    ).click()
    expect(page.get_by_test_id("help-article").get_by_role("heading", level=1)).to_have_text(
        re.compile("^Leading a project")
    )
