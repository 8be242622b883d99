"""A project with real public_meetings documents assigned to an annotator, and helpers that
drive the editor the way an annotator does."""

import math
import re
import time
from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model

from backend.alignments.models import Annotation
from backend.curation.public_meetings import import_public_meeting
from backend.documents.models import Document
from backend.projects.models import Membership, Project, Role

PASSWORD = "correct horse battery staple"
SMALL_MEETING = "0b9ec6f049e68d4a35fae75792e2a84e"
"""60 turns and 41 segments, with the corpus's own pre-alignment."""
PRE_ALIGN_TIMEOUT_SECONDS = 120
LARGEST_MEETING = "199073d27fc61f6a76cb1f9c1d977aa6"
"""The largest public_meetings meeting: ~842 turns, 358 segments, ~145k words."""


@dataclass
class Team:
    project: Project
    lead: object
    annotator: object


@pytest.fixture
def team(transactional_db) -> Team:
    users = get_user_model().objects
    lead = users.create_user("lead", password=PASSWORD)
    annotator = users.create_user("annotator", password=PASSWORD)
    project = Project.objects.create(name="Public meetings", created_by=lead)
    Membership.objects.create(project=project, user=lead, role=Role.LEAD)
    Membership.objects.create(project=project, user=annotator, role=Role.ANNOTATOR)
    return Team(project, lead, annotator)


def import_meeting(team: Team, meeting_id: str) -> Document:
    return import_public_meeting(
        actor=team.lead, project=team.project, meeting_id=meeting_id, assignees=[team.annotator]
    )


@pytest.fixture
def small_document(team) -> Document:
    return import_meeting(team, SMALL_MEETING)


def editor_url(live_server, document: Document) -> str:
    return f"{live_server.url}/projects/{document.project_id}/documents/{document.pk}"


def fit_window_to(page, locator) -> None:
    """Makes the window tall enough to show `locator` whole, for a screenshot. The app's main
    pane scrolls under its bar, so an element taller than the pane came out cut and overlapped
    by the bar: the pane is scrolled to its top first."""
    page.evaluate("document.querySelector('.app > main')?.scrollTo(0, 0)")
    box = locator.bounding_box()
    width = page.viewport_size["width"]
    page.set_viewport_size({"width": width, "height": math.ceil(box["y"] + box["height"]) + 32})


def sign_in(page, live_server, username: str = "annotator") -> None:
    page.goto(live_server.url + "/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("heading", name="Your documents").wait_for()


def open_editor(page, live_server, document: Document) -> None:
    page.goto(editor_url(live_server, document))
    page.get_by_test_id("editor").wait_for()


def turn(page, index: int):
    """A transcript turn by its 0-based position (the page numbers them from 1)."""
    return page.locator(f"#turn-{index}")


def segment_label(segment: int) -> str:
    return "unaligned" if segment < 0 else f"segment {segment + 1}"


def expect_turn_assigned(page, index: int, segment: int) -> None:
    from playwright.sync_api import expect

    expect(turn(page, index)).to_have_accessible_name(
        re.compile(rf"^Turn {index + 1}, {segment_label(segment)}\b")
    )


def wait_until_saved(page) -> None:
    from playwright.sync_api import expect

    expect(page.get_by_test_id("save-status")).to_have_text("All changes saved", timeout=10_000)


def go_to_turn(page, index: int) -> None:
    """Keyboard only: `g`, the turn's number, Enter; focus returns to the turns."""
    page.keyboard.press("g")
    page.keyboard.type(str(index + 1))
    page.keyboard.press("Enter")
    expect_focused_turn(page, index)


def expect_focused_turn(page, index: int) -> None:
    from playwright.sync_api import expect

    expect(page.get_by_role("listbox", name="Transcript turns")).to_have_attribute(
        "aria-activedescendant", f"turn-{index}"
    )


def stored_assignments(document: Document, annotator) -> list[int]:
    return Annotation.objects.get(document=document, annotator=annotator).assignments


SAVE_TIMEOUT_SECONDS = 10


def wait_until_stored(document: Document, annotator, turn: int, segment: int) -> Annotation:
    """Until the server holds the annotator's edit of `turn`. Right after an edit the page
    may still say "All changes saved" for a moment, before its autosave has started, so the
    status alone does not say the edit reached the server."""
    deadline = time.monotonic() + SAVE_TIMEOUT_SECONDS
    while True:
        annotation = Annotation.objects.filter(document=document, annotator=annotator).first()
        if annotation is not None and annotation.assignments[turn] == segment:
            return annotation
        if time.monotonic() > deadline:
            raise AssertionError(f"turn {turn} was not stored on segment {segment}: {annotation}")
        time.sleep(0.1)


def pre_align_on_the_worker(team: Team, document: Document) -> list[float]:
    """Pre-aligns the document the way a lead does, with a job the Celery worker runs (tf-idf
    scoring: no word vectors to train), so that turns carry the engine's confidences."""
    from backend.alignments.models import PreAlignment
    from backend.alignments.services.pre_alignments import (
        parameter_set_get_or_create,
        pre_align_start,
    )
    from backend.jobs.models import Job
    from workers.align.params import AlignmentParams

    parameter_set = parameter_set_get_or_create(
        project=team.project,
        name="tf-idf",
        params=AlignmentParams().with_changes({"scoring.method": "tfidf"}).to_dict(),
        engine_version="",
    )
    job = pre_align_start(
        actor=team.lead, project=team.project, documents=[document], parameter_set=parameter_set
    )
    deadline = time.monotonic() + PRE_ALIGN_TIMEOUT_SECONDS
    while job.status not in Job.FINISHED and time.monotonic() < deadline:
        time.sleep(0.25)
        job.refresh_from_db()
    assert job.status == Job.Status.SUCCEEDED, f"{job.status}: {job.error}"
    return PreAlignment.objects.get(document=document, parameter_set=parameter_set).confidences
