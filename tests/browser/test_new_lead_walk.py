"""A new lead goes from no project to an export with every step in the app, on two real
public_meetings meetings and the real worker: creates the project, adds the annotator, uploads
the meetings' files, opens an iteration pre-aligned by the worker; the annotator (in a browser
of their own) corrects and submits both documents; the lead closes the iteration and downloads
the corpus.

Every request both browsers make is recorded: each goes to the app's own origin, every API
call is the app's code at work (a fetch from its pages, or the download of a link they show),
and the writes are exactly the steps above, so nothing was done behind the app's back. The
test itself only creates the two accounts (the app has no sign-up) and reads the database.
axe-core checks every page of the walk."""

import json
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model

from backend.alignments.models import Annotation
from backend.curation.public_meetings import raw_files
from backend.iterations.models import Iteration
from tests.browser.accessibility import assert_accessible
from tests.browser.conftest import PASSWORD, expect_turn_assigned, sign_in, wait_until_saved
from tests.conftest import csp_violations

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

MEETINGS = [
    "686239f069621dada25c3408f1867d66",  # 33 turns, 12 segments
    "0b9ec6f049e68d4a35fae75792e2a84e",  # 60 turns, 41 segments
]
JOB_TIMEOUT_MS = 120_000
API_CALLS_FROM_CODE = ("fetch", "xhr")


@dataclass(frozen=True)
class Sent:
    """A request a page sent, as recorded when it left."""

    who: str
    method: str
    url: str
    resource_type: str

    @property
    def path(self) -> str:
        return urlsplit(self.url).path


def record_requests(page, who: str, sent: list[Sent]) -> None:
    page.on(
        "request",
        lambda request: sent.append(Sent(who, request.method, request.url, request.resource_type)),
    )


def test_a_new_lead_walks_from_an_empty_project_to_an_export_in_the_app(
    page, browser, live_server, celery_worker_process, tmp_path
):
    from playwright.sync_api import expect

    users = get_user_model().objects
    users.create_user("lead", password=PASSWORD)
    annotator = users.create_user("annotator", password=PASSWORD)
    sent: list[Sent] = []
    record_requests(page, "lead", sent)
    downloads: list[str] = []

    # The lead signs in and creates a project.
    sign_in(page, live_server, "lead")
    assert_accessible(page, "the lead's documents page, empty")
    page.get_by_role("link", name="Projects you lead").click()
    expect(page.get_by_text("You lead no project yet.")).to_be_visible()
    assert_accessible(page, "the lead's home, with no project")
    page.get_by_label("Name", exact=True).fill("Council meetings")
    page.get_by_role("button", name="Create project").click()

    # Adds the annotator.
    expect(page.get_by_role("heading", name="Members")).to_be_visible()
    assert_accessible(page, "the new project's settings and members")
    invite = page.get_by_role("form", name="Add a member")
    invite.get_by_label("Username").fill("annotator")
    invite.get_by_role("button", name="Add member").click()
    expect(page.get_by_label("Role of annotator")).to_have_value("annotator")

    # Uploads the two meetings' files, chosen the way a file dialog gives them.
    page.get_by_role("navigation", name="Project pages").get_by_role(
        "link", name="Documents"
    ).click()
    expect(page.get_by_text("No documents yet: upload pairs above.")).to_be_visible()
    assert_accessible(page, "the empty documents page")
    files = []
    for meeting in MEETINGS:
        report, parts = raw_files(meeting)
        files += [report, *parts]
    page.get_by_label("Choose files…").set_input_files(files)
    expect(page.get_by_test_id("planned-upload")).to_have_count(2)
    assert_accessible(page, "the pairs to upload")
    page.get_by_role("button", name="Upload 2 pairs").click()
    jobs = page.get_by_role("list", name="Uploads").get_by_test_id("job")
    expect(jobs).to_have_count(2)
    for job in jobs.all():
        expect(job).to_have_attribute("data-status", "succeeded", timeout=JOB_TIMEOUT_MS)
    rows = page.get_by_test_id("lead-document-row")
    expect(rows.filter(has_text="Imported")).to_have_count(2)
    assert_accessible(page, "the documents page with the imports done")

    # Opens the first iteration on the worker's diagonal pre-alignment.
    page.get_by_role("navigation", name="Project pages").get_by_role(
        "link", name="Iterations"
    ).click()
    page.get_by_role("radio", name=re.compile("^the diagonal aligner")).check()
    for meeting in MEETINGS:
        page.get_by_label(f"Put {meeting} in the batch").check()
    page.get_by_role("button", name="Spread the batch over the annotators").click()
    assert_accessible(page, "the form that opens an iteration")
    page.get_by_role("button", name="Open iteration 1 with 2 documents").click()
    status = page.get_by_test_id("iteration-status")
    expect(status).to_have_text("Annotating", timeout=JOB_TIMEOUT_MS)
    expect(page.get_by_test_id("batch-progress")).to_have_text("0 of 2 submitted")
    assert_accessible(page, "the iteration while annotators work")

    # The annotator, in a browser of their own, corrects one turn of each and submits.
    annotator_context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        annotator_page = annotator_context.new_page()
        annotator_csp = csp_violations(annotator_page)
        record_requests(annotator_page, "annotator", sent)
        sign_in(annotator_page, live_server, "annotator")
        expect(annotator_page.get_by_role("link", name=MEETINGS[0])).to_be_visible()
        assert_accessible(annotator_page, "the annotator's documents")
        for meeting in MEETINGS:
            annotator_page.get_by_role("link", name=meeting).click()
            annotator_page.get_by_test_id("editor").wait_for()
            assert_accessible(annotator_page, f"the editor on {meeting}")
            annotator_page.keyboard.press("ArrowDown")
            annotator_page.keyboard.press("u")
            expect_turn_assigned(annotator_page, 1, -1)
            annotator_page.keyboard.press("Control+s")
            wait_until_saved(annotator_page)
            annotator_page.keyboard.press("Control+Enter")
            dialog = annotator_page.get_by_role("dialog", name="Submit this document?")
            expect(dialog).to_contain_text("1 turn changed")
            assert_accessible(annotator_page, "the submit dialog")
            dialog.get_by_role("button", name="Submit").click()
            expect(annotator_page.get_by_test_id("save-status")).to_contain_text("Submitted")
            annotator_page.get_by_role("link", name="← Documents").click()
            annotator_page.get_by_role("heading", name="Your documents").wait_for()
    finally:
        annotator_context.close()
    assert not annotator_csp, f"Content-Security-Policy violations: {annotator_csp}"

    # The lead closes the iteration without tuning.
    expect(page.get_by_test_id("batch-progress")).to_have_text("2 of 2 submitted")
    page.get_by_text("Tuning options").click()
    page.get_by_label("Tune after closing").uncheck()
    page.get_by_role("button", name="Close iteration 1").click()
    expect(status).to_have_text("Closed", timeout=JOB_TIMEOUT_MS)
    assert_accessible(page, "the closed iteration")

    # And downloads the corpus.
    page.get_by_role("navigation", name="Project pages").get_by_role("link", name="Exports").click()
    expect(page.get_by_test_id("exported-pairs").first).to_be_visible()
    assert_accessible(page, "the exports page")
    link = page.get_by_role("link", name="Pairs, JSON lines")
    with page.expect_download() as download_info:
        link.click()
    download = download_info.value
    downloads.append(download.url)
    exported = tmp_path / "pairs.jsonl"
    download.save_as(exported)
    lines = [json.loads(line) for line in exported.read_text(encoding="utf-8").splitlines()]
    assert lines, "the export holds the gold's pairs"

    # What the app did is what the database holds.
    iteration = Iteration.objects.get(project__name="Council meetings", number=1)
    assert iteration.closed_at is not None
    assert Annotation.objects.filter(annotator=annotator, submitted_at__isnull=False).count() == 2

    # Every request stayed on the app's origin and every API call came from the app.
    origin = urlsplit(live_server.url)
    elsewhere = [
        s.url
        for s in sent
        if urlsplit(s.url).scheme in ("http", "https", "ws", "wss")
        if urlsplit(s.url).netloc != origin.netloc
    ]
    assert not elsewhere, f"requests to another origin: {elsewhere}"
    api = [s for s in sent if s.path.startswith("/api/")]
    not_from_code = [
        s for s in api if s.resource_type not in API_CALLS_FROM_CODE and s.url not in downloads
    ]
    assert not not_from_code, f"API requests the app's code did not make: {not_from_code}"
    writes = [
        (s.who, s.method, re.sub(r"/\d+/", "/{id}/", s.path))
        for s in api
        if s.method not in ("GET", "HEAD", "OPTIONS")
    ]
    assert_steps(writes)


def assert_steps(writes: list[tuple[str, str, str]]) -> None:
    """The writes the walk made, in the order of its steps (repeated saves of one step, such
    as the editor's autosave and reading position, counted once)."""
    steps = []
    for write in writes:
        if not steps or steps[-1] != write:
            steps.append(write)
    doc = "/api/v1/projects/{id}/documents/{id}/"
    assert [step for step in steps if not step[2].endswith("/position/")] == [
        ("lead", "POST", "/api/v1/auth/session/"),
        ("lead", "POST", "/api/v1/projects/"),
        ("lead", "POST", "/api/v1/projects/{id}/members/"),
        ("lead", "POST", "/api/v1/projects/{id}/documents/"),
        ("lead", "POST", "/api/v1/projects/{id}/iterations/"),
        ("annotator", "POST", "/api/v1/auth/session/"),
        ("annotator", "POST", doc + "annotation/"),
        ("annotator", "POST", doc + "annotation/submit/"),
        ("annotator", "POST", doc + "annotation/"),
        ("annotator", "POST", doc + "annotation/submit/"),
        ("lead", "POST", "/api/v1/projects/{id}/iterations/{id}/close/"),
    ], steps
