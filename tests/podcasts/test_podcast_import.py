"""Podcast projects end to end on a real worker: an episode's timed transcript (Whisper JSON
or CTM, real ASR words from public_meetings) and its description uploaded, imported as
30-second windows and description sentences."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from backend.documents.models import Document
from tests.documents.test_import_job import wait_for
from tests.domain import make_user
from tests.openapi import assert_matches_schema
from tests.podcasts.episodes import episode


def create_project(client: APIClient, **body) -> dict:
    response = client.post("/api/v1/projects/", {"name": "episodes", **body}, format="json")
    assert response.status_code == 201, response.json()
    return assert_matches_schema(response, "POST")


def upload(client: APIClient, project_id: int, transcript: tuple[str, bytes], **units):
    return client.post(
        f"/api/v1/projects/{project_id}/documents/",
        {
            "report": SimpleUploadedFile("description.txt", episode().description.encode()),
            "transcript": [SimpleUploadedFile(*transcript)],
            **units,
        },
        format="multipart",
    )


def signed_in() -> APIClient:
    client = APIClient()
    client.force_login(make_user("host"))
    return client


def window_of(seconds: float, length: float) -> int:
    return int(seconds // length)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("transcript", ["episode.json", "episode.ctm"])
def test_an_episode_imports_as_windows_that_never_split_a_word(celery_worker_process, transcript):
    client = signed_in()
    project = create_project(client, kind="podcast", language="fr")
    cut = episode()
    data = cut.whisper_json if transcript.endswith(".json") else cut.ctm
    response = upload(client, project["id"], (transcript, data))
    assert response.status_code == 202, response.json()

    job = wait_for(client, response["Location"])

    assert job["status"] == "succeeded", job
    document = Document.objects.get(pk=job["result"]["document"])
    windows = list(document.turns.order_by("position"))
    assert len(windows) == window_of(cut.seconds, 30) + 1
    assert sum(len(window.words) for window in windows) == cut.words
    for window in windows:
        starts = {window_of(start, 30) for _, start, _, _ in window.words}
        assert starts == {window_of(window.start, 30)}, "every word starts in its window"
        assert window.end == max(end for _, _, end, _ in window.words)
    assert document.segments.count() == len(cut.description.split(". "))
    assert job["message"] == f"imported: {document.segment_count} segments, one per sentence"


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_meeting_project_may_cut_its_transcripts_into_windows_of_its_length(
    celery_worker_process,
):
    client = signed_in()
    settings = {"transcript_unit": "windows", "window_seconds": 60}
    project = create_project(client, language="fr", settings=settings)
    cut = episode()
    response = upload(client, project["id"], ("episode.json", cut.whisper_json))
    job = wait_for(client, response["Location"])
    assert job["status"] == "succeeded", job
    document = Document.objects.get(pk=job["result"]["document"])
    assert document.turn_count == window_of(cut.seconds, 60) + 1
    assert document.segment_count == 1, "a meeting report without speakers: one paragraph"


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_an_untimed_transcript_fails_the_import_in_words(celery_worker_process):
    client = signed_in()
    project = create_project(client, kind="podcast", language="fr")
    untimed = b'{"segments": [{"text": "bonjour et bienvenue"}, {"text": "au revoir"}]}'
    job = wait_for(client, upload(client, project["id"], ("episode.json", untimed))["Location"])
    assert job["status"] == "failed"
    assert "episode.json" in job["error"]
    assert "time" in job["error"]
    assert Document.objects.get().status == Document.Status.IMPORT_FAILED


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("kind", "units", "expected"),
    [
        ("podcast", {"transcript_unit": "turns"}, "turns"),
        ("meeting", {"window_seconds": "45"}, 45),
        ("meeting", {"transcript_unit": "windows"}, 30),
    ],
)
def test_an_upload_may_choose_its_own_units(celery_worker_process, kind, units, expected):
    client = signed_in()
    project = create_project(client, kind=kind, language="fr")
    cut = episode()
    response = upload(client, project["id"], ("episode.json", cut.whisper_json), **units)
    job = wait_for(client, response["Location"])
    assert job["status"] == "succeeded", job
    document = Document.objects.get(pk=job["result"]["document"])
    segments = len(json.loads(cut.whisper_json)["segments"])
    windows = segments if expected == "turns" else window_of(cut.seconds, expected) + 1
    assert document.turn_count == windows


@pytest.mark.django_db
def test_an_uploads_own_window_length_is_checked_before_anything_is_stored():
    client = signed_in()
    project = create_project(client, kind="podcast")
    response = upload(
        client, project["id"], ("episode.json", episode().whisper_json), window_seconds=1
    )
    assert response.status_code == 400
    assert "window_seconds" in str(response.json())
    assert not Document.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("settings", "field"),
    [
        ({"transcript_unit": "frames"}, "transcript_unit"),
        ({"window_seconds": 1}, "window_seconds"),
        ({"window_seconds": 3600}, "window_seconds"),
        ({"salience_tau": 1.5}, "salience_tau"),
        ({"clean_descriptions": "sometimes"}, "clean_descriptions"),
    ],
)
def test_podcast_settings_are_checked_by_name(settings, field):
    client = signed_in()
    project = create_project(client, kind="podcast")
    response = client.patch(
        f"/api/v1/projects/{project['id']}/", {"settings": settings}, format="json"
    )
    assert response.status_code == 400
    assert field in str(response.json())


@pytest.mark.django_db
def test_a_description_must_be_text():
    client = signed_in()
    project = create_project(client, kind="podcast")
    response = client.post(
        f"/api/v1/projects/{project['id']}/documents/",
        {
            "report": SimpleUploadedFile("description.docx", b"PK\x03\x04"),
            "transcript": [SimpleUploadedFile("episode.json", episode().whisper_json)],
        },
        format="multipart",
    )
    assert response.status_code == 400
    assert "description.docx: unsupported report format; expected one of .txt, .md" in str(
        response.json()
    )
    assert not Document.objects.exists()
