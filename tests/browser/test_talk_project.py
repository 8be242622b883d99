"""A talk project from end to end in the browser, on the real worker (#15): the lead creates
it, uploads a paper (GROBID TEI) and its talk's transcript, opens an iteration (which
pre-aligns with TalkSumm's HMM, promoted at creation); the annotator sees the paper's
sentences under their sections, the excluded ones greyed, with importance meters, and
corrects a turn; the lead downloads summaries.jsonl, whose scores follow the annotator's
correction once submitted."""

import json
import re
from pathlib import Path

import pytest

from backend.alignments.models import PreAlignment
from backend.documents.models import Document
from backend.projects.models import Membership, Project, Role
from tests.align.paper_fixtures import SECTIONS, talk_srt, tei_paper
from tests.browser.conftest import PASSWORD, turn, wait_until_stored
from tests.browser.test_lead_upload import drop

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

JOB_TIMEOUT_MS = 120_000
CORRECTED_TO = 3
"""The Introduction's second sentence (after the Abstract's 2 and the Introduction's first),
which the HMM gives the second turn: the first turn joins it, and the order of turns holds."""


def sign_in_as(browser, live_server, username: str):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(live_server.url + "/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("heading", name="Your documents").wait_for()
    return page


def test_a_talk_project_is_created_uploaded_pre_aligned_corrected_and_summarised(
    browser, page, live_server, celery_worker_process, team
):
    from playwright.sync_api import expect

    from tests.browser.conftest import sign_in

    sign_in(page, live_server, "lead")
    page.goto(f"{live_server.url}/lead")
    page.get_by_label("Name").fill("Swifts talk")
    page.get_by_label("Kind").select_option("talk")
    page.get_by_label(re.compile("^Language")).fill("en")
    page.get_by_role("button", name="Create project").click()
    page.wait_for_url(re.compile(r"/lead/projects/\d+"))
    project = Project.objects.get(name="Swifts talk")
    assert project.kind == "talk"
    Membership.objects.create(project=project, user=team.annotator, role=Role.ANNOTATOR)

    page.goto(f"{live_server.url}/lead/projects/{project.pk}/documents")
    expect(page.get_by_role("heading", name="Upload papers and talks")).to_be_visible()
    drop(page, {"swifts.xml": tei_paper(), "swifts.srt": talk_srt()})
    page.get_by_role("button", name="Upload 1 pair").click()
    upload = page.get_by_role("list", name="Uploads").get_by_test_id("upload")
    expect(upload.get_by_test_id("job")).to_have_attribute(
        "data-status", "succeeded", timeout=JOB_TIMEOUT_MS
    )
    document = Document.objects.get(project=project)

    page.goto(f"{live_server.url}/lead/projects/{project.pk}/iterations")
    page.get_by_label(f"Put {document.name} in the batch").check()
    page.get_by_role("button", name="Spread the batch over the annotators").click()
    page.get_by_role("button", name="Open iteration 1 with 1 document").click()
    expect(page.get_by_test_id("iteration-status")).to_have_text(
        "Annotating", timeout=JOB_TIMEOUT_MS
    )
    pre_alignment = PreAlignment.objects.get(document=document)
    assert pre_alignment.params["aligner"] == "hmm"

    annotator = sign_in_as(browser, live_server, "annotator")
    annotator.get_by_role("link", name=document.name).click()
    annotator.get_by_test_id("editor").wait_for()
    titles = annotator.get_by_test_id("section-title")
    expect(titles.filter(has_text="1 Introduction")).to_be_visible()
    annotator.get_by_test_id("segment-list").evaluate("list => { list.scrollTop = 0; }")
    expect(titles.first).to_have_text("Abstract (left out of the alignment)")
    expect(titles.nth(1)).to_have_text(SECTIONS[1][0])
    expect(annotator.locator("#segment-0")).to_have_class(re.compile(r"\bexcluded\b"))
    expect(annotator.locator("#segment-2")).not_to_have_class(re.compile(r"\bexcluded\b"))
    expect(annotator.locator("#segment-2 meter.importance")).to_be_attached()

    turn(annotator, 0).click()
    annotator.get_by_role("button", name=f"Assign turn 1 to segment {CORRECTED_TO + 1}").click()
    wait_until_stored(document, team.annotator, 0, CORRECTED_TO)
    words = sum(document.turns.filter(position__in=(0, 1)).values_list("word_count", flat=True))
    assert pre_alignment.labels[1] == CORRECTED_TO != pre_alignment.labels[0]
    expect(annotator.locator(f"#segment-{CORRECTED_TO} meter.importance")).to_have_attribute(
        "aria-label", f"Importance of segment {CORRECTED_TO + 1}: {words} spoken words"
    )
    annotator.keyboard.press("Control+Enter")
    expect(annotator.get_by_role("dialog", name="Submit this document?")).to_be_visible()
    annotator.keyboard.press("Enter")
    expect(annotator.get_by_test_id("save-status")).to_contain_text("Submitted")

    page.goto(f"{live_server.url}/lead/projects/{project.pk}/exports")
    with page.expect_download() as download:
        page.get_by_role("link", name="Summaries, JSON lines").click()
    (line,) = [
        json.loads(text)
        for text in Path(download.value.path()).read_text(encoding="utf-8").splitlines()
    ]
    assert line["scores_from"] == "gold"
    assert line["units"][CORRECTED_TO]["score"] == words
    assert set(line["summaries"]) == {"150_words", "250_words", "ratio_0.3", "ratio_0.4"}
