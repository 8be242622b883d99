"""Pages that used to mislead, each checked in a real browser on real public_meetings
meetings: the public_meetings download, a document put back in its iteration, where an
annotator left off as the server knows it, the app bar's links and the page not scrolling it
away, and a talk paper's left-out sections in the editor."""

import pytest

from backend.alignments.services.positions import reading_position_save
from backend.alignments.services.pre_alignments import pre_alignment_record
from backend.documents.models import Document
from backend.documents.services import document_store_parsed, paper_report
from backend.projects.models import Membership, Project, Role
from tests.align.paper_fixtures import markdown_paper, talk_srt
from tests.browser.conftest import open_editor, sign_in, turn
from tests.browser.lead_builders import import_meetings, pre_aligned_iteration
from workers.align.readers import read_paper, read_transcript

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WCAG_AA_TEXT = 4.5


def test_the_public_meetings_download_takes_no_filter_and_is_served(
    page, live_server, team, small_document
):
    from playwright.sync_api import expect

    sign_in(page, live_server, "lead")
    page.goto(f"{live_server.url}/lead/projects/{team.project.pk}/exports")
    page.get_by_label("include automatic pairs").check()
    link = page.get_by_role("link", name="public_meetings layout")
    expect(link).to_have_attribute(
        "href", f"/api/v1/projects/{team.project.pk}/exports/public-meetings.json"
    )
    download = page.request.get(live_server.url + link.get_attribute("href"))
    assert download.status == 200, download.text()
    assert len(download.json()) == Document.objects.filter(project=team.project).count() == 1
    expect(page.get_by_role("list", name="Export formats")).to_contain_text(
        "the filters do not apply"
    )


@pytest.mark.worker
def test_a_document_taken_out_is_put_back_without_a_refusal_or_a_stale_message(
    page, live_server, celery_worker_process, team
):
    from playwright.sync_api import expect

    (document,) = import_meetings(team, ["686239f069621dada25c3408f1867d66"])
    iteration = pre_aligned_iteration(team, [document])
    sign_in(page, live_server, "lead")
    page.goto(f"{live_server.url}/lead/projects/{team.project.pk}/iterations/{iteration.pk}")
    batch = page.get_by_test_id("batch-document")
    batch.get_by_role("button", name="Take out of the iteration").click()
    page.get_by_role("dialog", name="Take out the last document?").get_by_role(
        "button", name="Take it out"
    ).click()
    expect(batch).to_have_count(0)
    page.get_by_role("button", name="Close iteration 1").click()
    expect(page.get_by_role("alert")).to_contain_text("no documents left to close")

    adding = page.get_by_role("form", name="Add documents to iteration 1")
    adding.get_by_label(document.name).check()
    adding.get_by_role("button", name="Add and pre-align").click()

    expect(page.get_by_role("status")).to_have_text("1 document added; it keeps its pre-alignment.")
    expect(page.get_by_role("alert")).to_have_count(0)
    expect(batch).to_have_count(1)
    expect(page.get_by_test_id("iteration-status")).to_have_text("Annotating")


def test_where_an_annotator_left_off_is_read_from_the_server_in_a_new_browser(
    page, live_server, team, small_document
):
    from playwright.sync_api import expect

    reading_position_save(user=team.annotator, document=small_document, turn=29)
    sign_in(page, live_server)
    row = page.get_by_test_id("document-row").filter(has_text=small_document.name)
    expect(row).to_contain_text(f"turn 30 of {small_document.turn_count}")
    expect(
        page.get_by_role("link", name=f"Continue “{small_document.name}” at turn 30")
    ).to_be_visible()


def contrast(first: str, second: str) -> float:
    """WCAG 2's contrast ratio of two computed `rgb(...)` colours."""

    def luminance(color: str) -> float:
        channels = [int(part) / 255 for part in color[color.index("(") + 1 : -1].split(",")[:3]]
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    lighter, darker = sorted([luminance(first), luminance(second)], reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def test_the_app_bar_links_meet_wcag_aa_contrast(page, live_server, team):
    from playwright.sync_api import expect

    sign_in(page, live_server, "lead")
    bar = page.locator(".app-bar")
    background = bar.evaluate("element => getComputedStyle(element).backgroundColor")
    links = bar.get_by_role("link")
    expect(links.filter(has_text="API tokens")).to_be_visible()
    for index in range(links.count()):
        link = links.nth(index)
        color = link.evaluate("element => getComputedStyle(element).color")
        ratio = contrast(color, background)
        assert ratio >= WCAG_AA_TEXT, f"{link.inner_text()}: {color} on {background}, {ratio:.1f}:1"


def talk_document(team) -> tuple[Document, list[str]]:
    """The test paper and its talk in a talk project the annotator is assigned, pre-aligned
    with every turn on the Method's first sentence; the sections of its segments."""
    project = Project.objects.create(name="Talks", kind="talk", language="en", created_by=team.lead)
    Membership.objects.create(project=project, user=team.lead, role=Role.LEAD)
    Membership.objects.create(project=project, user=team.annotator, role=Role.ANNOTATOR)
    document = Document.objects.create(project=project, name="swifts")
    report, sections = paper_report(read_paper(markdown_paper(), "paper.md", "en"), "sentences")
    transcript = read_transcript(talk_srt(), "talk.srt", "en")
    document_store_parsed(
        document=document, report=report, transcript=transcript, sections=sections
    )
    document.assignees.set([team.annotator])
    labels = [sections.index("3 Method")] * len(transcript.turns)
    pre_alignment_record(document=document, parameter_set=None, labels=labels)
    return document, sections


def test_the_editor_warns_when_a_turn_is_put_in_a_left_out_section(page, live_server, team):
    from playwright.sync_api import expect

    document, sections = talk_document(team)
    acknowledgments = sections.index("Acknowledgments")
    document.refresh_from_db()
    sign_in(page, live_server)
    open_editor(page, live_server, document)
    turn(page, document.turn_count - 1).click()
    page.keyboard.press("a")
    page.keyboard.type(str(acknowledgments + 1))
    page.keyboard.press("Enter")

    expect(page.get_by_role("alert")).to_contain_text(
        f"Segment {acknowledgments + 1} is in “Acknowledgments”, a section left out of the "
        "alignment: turns put there count for no summary."
    )
    expect(page.get_by_test_id("excluded-warning")).to_have_text(" · 1 turn in left-out sections")


def test_removing_a_member_asks_first(page, live_server, team):
    from playwright.sync_api import expect

    sign_in(page, live_server, "lead")
    page.goto(f"{live_server.url}/lead/projects/{team.project.pk}")
    page.get_by_role("button", name="Remove annotator").click()
    confirm = page.get_by_role("dialog", name="Remove annotator from the project?")
    confirm.get_by_role("button", name="Keep them").click()
    expect(page.get_by_role("button", name="Remove annotator")).to_be_visible()
    assert Membership.objects.filter(project=team.project, user=team.annotator).exists()

    page.get_by_role("button", name="Remove annotator").click()
    confirm.get_by_role("button", name="Remove them").click()
    expect(page.get_by_role("button", name="Remove annotator")).to_have_count(0)
    assert not Membership.objects.filter(project=team.project, user=team.annotator).exists()


def test_a_lead_opens_a_document_from_the_table_and_comes_back_to_it(
    page, live_server, team, small_document
):
    from playwright.sync_api import expect

    sign_in(page, live_server, "lead")
    expect(page.get_by_role("main")).not_to_contain_text("Your project lead assigns documents")
    page.goto(f"{live_server.url}/lead/projects/{team.project.pk}/documents")
    page.get_by_test_id("lead-document-row").get_by_role("link", name=small_document.name).click()
    page.get_by_test_id("editor").wait_for()
    page.get_by_role("link", name="Project documents").click()
    expect(page).to_have_url(f"{live_server.url}/lead/projects/{team.project.pk}/documents")
