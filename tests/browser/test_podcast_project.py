"""A podcast project from end to end in the browser, on the real worker (#16): the lead creates
it and uploads an episode (a Whisper JSON of real ASR words, its description and its
recording, made here); the import cuts 30-second windows; the lead reads the description's
cleaning; the annotator plays a window, which starts at that window's time, and corrects it;
the lead downloads the salience labels, whose gold follows the annotator's submission, and
reads the ROUGE rule's agreement with it on the dashboard."""

import json
import re
from pathlib import Path

import pytest

from backend.alignments.models import PreAlignment
from backend.documents.models import Document
from backend.projects.models import Membership, Project, Role
from tests.audio import sine_wav
from tests.browser.conftest import turn, wait_until_stored
from tests.browser.test_audio_playback import wait_until_playing
from tests.browser.test_lead_upload import drop
from tests.browser.test_talk_project import sign_in_as
from tests.podcasts.episodes import episode
from workers.align.document_model import UNALIGNED

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

JOB_TIMEOUT_MS = 120_000
LISTENED = 3
"""The window the annotator plays: the fourth, from 90 seconds on."""


def test_a_podcast_project_is_uploaded_windowed_labelled_corrected_and_exported(
    browser, page, live_server, celery_worker_process, team
):
    from playwright.sync_api import expect

    from tests.browser.conftest import sign_in

    cut = episode()
    sign_in(page, live_server, "lead")
    page.goto(f"{live_server.url}/lead")
    page.get_by_label("Name").fill("Episodes")
    page.get_by_label("Kind").select_option("podcast")
    page.get_by_label(re.compile("^Language")).fill("fr")
    page.get_by_role("button", name="Create project").click()
    page.wait_for_url(re.compile(r"/lead/projects/\d+"))
    project = Project.objects.get(name="Episodes")
    assert project.kind == "podcast"
    Membership.objects.create(project=project, user=team.annotator, role=Role.ANNOTATOR)

    page.goto(f"{live_server.url}/lead/projects/{project.pk}/documents")
    expect(page.get_by_role("heading", name="Upload episodes")).to_be_visible()
    drop(
        page,
        {
            "episode.json": cut.whisper_json,
            "episode.txt": cut.description.encode(),
            "episode.wav": sine_wav(cut.seconds + 1),
        },
    )
    page.get_by_role("button", name="Upload 1 pair").click()
    upload = page.get_by_role("list", name="Uploads").get_by_test_id("upload")
    expect(upload.get_by_test_id("job")).to_have_attribute(
        "data-status", "succeeded", timeout=JOB_TIMEOUT_MS
    )
    document = Document.objects.get(project=project)
    assert document.files.filter(role="audio").exists()
    windows = list(document.turns.order_by("position"))
    assert [int(window.start // 30) for window in windows] == list(range(len(windows)))

    page.goto(f"{live_server.url}/lead/projects/{project.pk}")
    expect(page.get_by_test_id("cleaning-summary")).to_contain_text(
        f"of {document.segment_count} sentences in the first 1 of 1 descriptions"
    )
    expect(page.get_by_role("table", name=f"Cleaning of {document.name}")).to_be_visible()

    page.goto(f"{live_server.url}/lead/projects/{project.pk}/iterations")
    page.get_by_label(f"Put {document.name} in the batch").check()
    page.get_by_role("button", name="Spread the batch over the annotators").click()
    page.get_by_role("button", name="Open iteration 1 with 1 document").click()
    expect(page.get_by_test_id("iteration-status")).to_have_text(
        "Annotating", timeout=JOB_TIMEOUT_MS
    )

    proposed = PreAlignment.objects.get(document=document).labels
    corrected = UNALIGNED if proposed[LISTENED] != UNALIGNED else max(0, proposed[LISTENED - 1])

    annotator = sign_in_as(browser, live_server, "annotator")
    annotator.get_by_role("link", name=document.name).click()
    annotator.get_by_test_id("editor").wait_for()
    turn(annotator, LISTENED).click()
    annotator.keyboard.press("p")
    at = wait_until_playing(annotator)
    listened = windows[LISTENED]
    assert listened.start <= at < listened.end
    expect(turn(annotator, LISTENED)).to_have_class(re.compile(r"\bplaying\b"))
    annotator.keyboard.press("p")
    if corrected == UNALIGNED:
        annotator.keyboard.press("u")
    else:
        annotator.get_by_role(
            "button", name=f"Assign turn {LISTENED + 1} to segment {corrected + 1}"
        ).click()
    wait_until_stored(document, team.annotator, LISTENED, corrected)
    annotator.keyboard.press("Control+Enter")
    expect(annotator.get_by_role("dialog", name="Submit this document?")).to_be_visible()
    annotator.keyboard.press("Enter")
    expect(annotator.get_by_test_id("save-status")).to_contain_text("Submitted")

    page.goto(f"{live_server.url}/lead/projects/{project.pk}/exports")
    expect(page.get_by_test_id("salience-ratio")).to_contain_text(f"of {len(windows)} windows")
    with page.expect_download() as download:
        page.get_by_role("link", name="Salience labels, JSON lines").click()
    units = [
        json.loads(text)
        for text in Path(download.value.path()).read_text(encoding="utf-8").splitlines()
    ]
    assert [unit["start"] for unit in units] == [window.start for window in windows]
    assert units[LISTENED]["gold_label"] is (corrected != UNALIGNED)
    assert all(unit["gold_label"] is not None for unit in units)

    page.goto(f"{live_server.url}/lead/projects/{project.pk}/dashboard")
    expect(
        page.get_by_role("heading", name=re.compile("the ROUGE rule against gold"))
    ).to_be_visible()
    expect(page.get_by_test_id("salience-row-all")).to_contain_text("1")
