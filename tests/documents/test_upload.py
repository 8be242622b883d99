"""Uploads refused while the user waits (4xx naming the problem, nothing written), and the
broker being down at enqueue time (503, the document removed, the job kept as failed)."""

import io

import pytest
from django.test import override_settings

from backend.celery import app as celery_app
from backend.documents.models import Document, OriginalFile
from backend.jobs.models import Job

REPORT = b"M. Dupont : Bonjour a tous.\n\nMme Durand : Merci.\n"
SRT = b"1\n00:00:01,000 --> 00:00:02,000\nbonjour a tous\n"


def named(data: bytes, name: str) -> io.BytesIO:
    file = io.BytesIO(data)
    file.name = name
    return file


def upload(world, report=None, transcripts=None):
    body = {}
    if report is not None:
        body["report"] = report
    if transcripts is not None:
        body["transcript"] = transcripts
    return world.client("lead").post(
        f"/api/v1/projects/{world.project.pk}/documents/", body, format="multipart"
    )


def nothing_written(world) -> bool:
    return (
        not Document.objects.filter(project=world.project, source="upload").exists()
        and not OriginalFile.objects.exists()
        and Job.objects.filter(project=world.project).count() == 1  # the world's own job
    )


@pytest.mark.parametrize(
    ("report", "transcripts", "complaint"),
    [
        (None, [named(SRT, "t.srt")], "'report'"),
        (named(REPORT, "r.txt"), None, "'transcript'"),
        (named(REPORT, "r.pdf"), [named(SRT, "t.srt")], "unsupported report format"),
        (named(REPORT, "r.txt"), [named(SRT, "t.mp3")], "unsupported transcript format"),
        (named(b"  \n", "r.txt"), [named(SRT, "t.srt")], "empty"),
        (named(b"plain text", "r.docx"), [named(SRT, "t.srt")], "not a .docx"),
        (named(REPORT, "r.txt"), [named(b"\xff\xfe\x00b\x00a\x00d", "t.srt")], "not UTF-8"),
        (named(REPORT, "r.txt"), [named(b'{"segments": [', "t.json")], "invalid JSON"),
        (named(REPORT, "r.txt"), [named(SRT, "a.srt"), named(SRT, "b.srt")], "Only .ctm"),
    ],
)
def test_an_unreadable_upload_gets_a_400_naming_it_and_writes_nothing(
    world, report, transcripts, complaint
):
    response = upload(world, report, transcripts)

    assert response.status_code == 400
    assert complaint in response.json()["detail"]
    assert nothing_written(world)


@override_settings(TANDEM_MAX_UPLOAD_BYTES=100)
def test_an_oversized_upload_gets_a_413_and_writes_nothing(world):
    response = upload(world, named(REPORT * 3, "r.txt"), [named(SRT, "t.srt")])

    assert response.status_code == 413
    assert "limit is 100 bytes" in response.json()["detail"]
    assert nothing_written(world)


def test_an_accepted_upload_stores_the_files_and_answers_with_its_job(world):
    response = upload(world, named(REPORT, "r.txt"), [named(SRT, "t.srt")])

    assert response.status_code == 202
    job = Job.objects.get(pk=response.json()["id"])
    assert response["Location"] == f"/api/v1/projects/{world.project.pk}/jobs/{job.pk}/"
    assert job.status == Job.Status.QUEUED
    assert job.document.status == Document.Status.IMPORTING
    assert sorted(job.document.files.values_list("original_name", flat=True)) == [
        "r.txt",
        "t.srt",
    ]


def test_an_unreachable_broker_gets_a_503_and_leaves_no_document(world, monkeypatch):
    unreachable = "redis://127.0.0.1:9/0"
    monkeypatch.setenv("CELERY_BROKER_URL", unreachable)
    monkeypatch.setitem(celery_app.conf, "broker_url", unreachable)

    response = upload(world, named(REPORT, "r.txt"), [named(SRT, "t.srt")])

    assert response.status_code == 503
    assert "task queue is unreachable" in response.json()["detail"]
    assert not Document.objects.filter(project=world.project, source="upload").exists()
    assert not OriginalFile.objects.exists()
    failed = Job.objects.get(status=Job.Status.FAILED)
    assert failed.document is None
    assert "unreachable" in failed.error
