"""A lead drops two document pairs at once, fixes the pairing the names got wrong, and
follows both imports on the real worker: the good pair imports, the broken transcript fails
alone with the reader's error."""

import base64
import re

import pytest

from backend.curation.public_meetings import raw_files
from backend.documents.models import Document
from tests.browser.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

MEETING = "686239f069621dada25c3408f1867d66"
"""The smallest public_meetings meeting: 33 turns, 12 segments, one .ctm part."""
BROKEN_SRT = b"this is not a subtitle file\n"
IMPORT_TIMEOUT_MS = 120_000

DROP_FILES = """([selector, files]) => {
  const transfer = new DataTransfer();
  for (const [name, data] of files) {
    const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    transfer.items.add(new File([bytes], name));
  }
  const target = document.querySelector(selector);
  target.dispatchEvent(new DragEvent("dragover", { bubbles: true, dataTransfer: transfer }));
  target.dispatchEvent(new DragEvent("drop", { bubbles: true, dataTransfer: transfer }));
}"""


def drop(page, files: dict[str, bytes]) -> None:
    encoded = [[name, base64.b64encode(data).decode()] for name, data in files.items()]
    page.get_by_test_id("drop-zone").wait_for()
    page.evaluate(DROP_FILES, ["[data-testid=drop-zone]", encoded])


def test_dropped_pairs_import_separately_and_a_bad_file_fails_alone(
    page, live_server, celery_worker_process, team
):
    from playwright.sync_api import expect

    report, (ctm,) = raw_files(MEETING)
    sign_in(page, live_server, "lead")
    page.goto(f"{live_server.url}/lead/projects/{team.project.pk}/documents")

    drop(
        page,
        {
            f"{MEETING}.docx": report.read_bytes(),
            ctm.name: ctm.read_bytes(),
            "council.md": b"# Council\n\nMr Smith. We open the session.\n",
            "recording.srt": BROKEN_SRT,
            "agenda.pdf": b"%PDF-1.4",
        },
    )
    expect(page.get_by_role("alert").filter(has_text="agenda.pdf")).to_contain_text(
        "Not a format Tandem reads"
    )
    planned = page.get_by_test_id("planned-upload")
    expect(planned).to_have_count(3)
    expect(planned.filter(has_text="recording.srt")).to_contain_text("No report")
    upload_button = page.get_by_role("button", name="Upload 1 pair")
    expect(upload_button).to_be_visible()

    page.get_by_label("Pair of recording.srt").select_option("council")
    expect(planned).to_have_count(2)
    page.get_by_role("button", name="Upload 2 pairs").click()

    uploads = page.get_by_role("list", name="Uploads").get_by_test_id("upload")
    expect(uploads).to_have_count(2)
    good = uploads.filter(has_text=MEETING.lower())
    bad = uploads.filter(has_text="council")
    expect(good.get_by_test_id("job")).to_have_attribute(
        "data-status", "succeeded", timeout=IMPORT_TIMEOUT_MS
    )
    expect(bad.get_by_test_id("job")).to_have_attribute(
        "data-status", "failed", timeout=IMPORT_TIMEOUT_MS
    )
    expect(bad.get_by_role("alert")).to_contain_text("expected a timing like")

    imported = Document.objects.get(project=team.project, name=MEETING.lower())
    assert (imported.status, imported.turn_count) == (Document.Status.IMPORTED, 33)
    rows = page.get_by_test_id("lead-document-row")
    expect(rows.filter(has_text=MEETING.lower())).to_contain_text("Imported")
    expect(rows.filter(has_text=MEETING.lower())).to_contain_text("33 turns, 12 segments")
    expect(rows.filter(has_text="council")).to_contain_text(re.compile("Import failed.*timing"))
