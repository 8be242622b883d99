"""The import job through a real Celery worker, on real public_meetings files."""

import time
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from backend.curation.public_meetings import raw_files
from backend.documents.models import Document, ReportSegment, TranscriptTurn
from backend.documents.services import document_import_run
from backend.jobs.models import Job
from backend.projects.models import Membership, Project, Role
from tests.conftest import fail_if_every_worker_died
from tests.domain import make_user
from tests.openapi import assert_matches_schema

SMALL_MEETING = "686239f069621dada25c3408f1867d66"
JOB_TIMEOUT_SECONDS = 120


def lead_client() -> tuple[APIClient, Project]:
    lead = make_user("importer")
    project = Project.objects.create(name="imports")
    Membership.objects.create(project=project, user=lead, role=Role.LEAD)
    client = APIClient()
    client.force_login(lead)
    return client, project


def upload(client: APIClient, project: Project, report: tuple, transcripts: list[tuple]):
    return client.post(
        f"/api/v1/projects/{project.pk}/documents/",
        {
            "report": SimpleUploadedFile(*report),
            "transcript": [SimpleUploadedFile(*part) for part in transcripts],
        },
        format="multipart",
    )


def wait_for(client: APIClient, job_url: str) -> dict:
    deadline = time.monotonic() + JOB_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        job = client.get(job_url).json()
        if job["status"] in ("succeeded", "failed", "cancelled"):
            return job
        fail_if_every_worker_died()
        time.sleep(0.2)
    pytest.fail(f"the job did not finish within {JOB_TIMEOUT_SECONDS}s: {job}")


def meeting_files(meeting_id: str) -> tuple[tuple, list[tuple]]:
    report, parts = raw_files(meeting_id)
    return (report.name, report.read_bytes()), [(part.name, part.read_bytes()) for part in parts]


@pytest.mark.worker
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_worker_imports_a_real_meeting_and_a_second_run_changes_nothing(celery_worker_process):
    client, project = lead_client()
    report, transcripts = meeting_files(SMALL_MEETING)

    accepted = upload(client, project, report, transcripts)
    assert accepted.status_code == 202, accepted.json()
    job = wait_for(client, accepted["Location"])

    assert job["status"] == "succeeded", job
    assert_matches_schema(client.get(accepted["Location"]))
    assert job["result"]["turns"] == 33
    assert job["result"]["segments"] == 12
    document = Document.objects.get(pk=job["document"])
    assert document.status == Document.Status.IMPORTED
    assert TranscriptTurn.objects.filter(document=document).count() == 33
    first_turn = TranscriptTurn.objects.get(document=document, position=0)
    assert (first_turn.speaker, first_turn.start) == ("S0", 0.05)

    rows_before = list(ReportSegment.objects.filter(document=document).values())
    Job.objects.filter(pk=job["id"]).update(status=Job.Status.RUNNING)
    document_import_run(job_id=job["id"])
    assert list(
        ReportSegment.objects.filter(document=document).values_list("text", "position")
    ) == [(row["text"], row["position"]) for row in rows_before]
    assert TranscriptTurn.objects.filter(document=document).count() == 33


@pytest.mark.worker
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_malformed_transcript_fails_the_job_with_the_readers_message(celery_worker_process):
    client, project = lead_client()
    report, transcripts = meeting_files(SMALL_MEETING)
    name, data = transcripts[0]
    lines = data.decode().splitlines()
    lines[6] = "Enregistrement\t1\t1.69\tnous\t0.6"
    broken = [(name, ("\n".join(lines) + "\n").encode())]

    accepted = upload(client, project, report, broken)
    assert accepted.status_code == 202
    job = wait_for(client, accepted["Location"])

    assert job["status"] == "failed"
    assert "line 7" in job["error"]
    assert "found 5" in job["error"]
    document = Document.objects.get(pk=job["document"])
    assert document.status == Document.Status.IMPORT_FAILED
    assert document.import_error == job["error"]
    assert not TranscriptTurn.objects.filter(document=document).exists()


@pytest.mark.django_db
def test_a_cancelled_job_is_not_run():
    client, project = lead_client()
    report, transcripts = meeting_files(SMALL_MEETING)
    accepted = upload(client, project, report, transcripts)
    job_url = accepted["Location"]

    cancelled = client.post(f"{job_url}cancel/")
    assert cancelled.json()["status"] == "cancelled"
    document_import_run(job_id=accepted.json()["id"])

    assert not TranscriptTurn.objects.exists()
    assert client.post(f"{job_url}cancel/").status_code == 409


@pytest.mark.django_db
def test_a_message_enqueued_for_another_job_with_the_same_id_is_ignored():
    client, project = lead_client()
    report, transcripts = meeting_files(SMALL_MEETING)
    accepted = upload(client, project, report, transcripts)
    job_id = accepted.json()["id"]

    document_import_run(job_id=job_id, task_id="a-message-left-from-an-older-database")

    assert Job.objects.get(pk=job_id).status == Job.Status.QUEUED
    assert not TranscriptTurn.objects.exists()
    document_import_run(job_id=job_id, task_id=str(Job.objects.get(pk=job_id).celery_task_id))
    assert Job.objects.get(pk=job_id).status == Job.Status.SUCCEEDED
    assert TranscriptTurn.objects.filter(document__project=project).count() == 33


@pytest.mark.django_db(transaction=True)
def test_an_english_project_reads_its_files_with_the_english_tokenizer():
    client, project = lead_client()
    project.language = "en-GB"
    project.save()
    english = Path(__file__).parents[1] / "align" / "fixtures" / "english"
    accepted = upload(
        client,
        project,
        ("council.md", (english / "council.md").read_bytes()),
        [("council.srt", (english / "council.srt").read_bytes())],
    )
    document_import_run(job_id=accepted.json()["id"])
    speakers = ReportSegment.objects.order_by("position").values_list("speaker", flat=True)
    assert list(speakers) == ["mrs. brown", "mr. green", "dr. white", "mrs. brown"]
    window = TranscriptTurn.objects.get(position=2)
    assert window.text == "can somebody close the window ? it's cold in here ."


@pytest.mark.django_db
def test_a_project_language_must_be_a_language_code():
    client, _ = lead_client()
    refused = client.post("/api/v1/projects/", {"name": "x", "language": "French!"}, format="json")
    assert refused.status_code == 400
    assert "language code" in str(refused.json())


@pytest.mark.django_db(transaction=True)
def test_an_import_says_how_the_report_was_segmented():
    client, project = lead_client()
    project.language = "en-GB"
    project.save()
    english = Path(__file__).parents[1] / "align" / "fixtures" / "english"
    notes = b"The council voted the budget.\n\nThe window was closed.\n\nThe meeting ended.\n"
    accepted = upload(
        client,
        project,
        ("notes.txt", notes),
        [("council.srt", (english / "council.srt").read_bytes())],
    )

    document_import_run(job_id=accepted.json()["id"])

    job = Job.objects.get(pk=accepted.json()["id"])
    assert job.status == Job.Status.SUCCEEDED, job.error
    assert job.result["segmented_by"] == "paragraphs"
    assert job.message == (
        "imported: 3 segments, one per paragraph (the report names no speaker on a 'Name :' line)"
    )


OVERFLOWING_CUE = b"1\n" + b"9" * 400 + b":00:00,000 --> " + b"9" * 400 + b":00:01,000\nbonjour\n"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("kind", [Project.Kind.MEETING, Project.Kind.PODCAST])
@pytest.mark.parametrize(
    ("transcript", "complaint"),
    [
        (
            ("t.srt", OVERFLOWING_CUE),
            "t.srt: line 2: start time inf is past 168 hours, longer than any recording",
        ),
        (
            ("t.json", b'{"segments": [{"text": "oui", "start": -2, "end": 1}]}'),
            "t.json: segments[0].start: start -2 is negative",
        ),
        (
            ("t.json", b'{"segments": [{"text": "oui", "start": 0, "end": 1e300}]}'),
            "t.json: segments[0].end: end 1e+300 is past 168 hours, longer than any recording",
        ),
    ],
)
def test_an_impossible_time_fails_the_import_with_the_readers_message(kind, transcript, complaint):
    """An overflowing hour used to import as Infinity (meetings: the editor and the export
    could no longer be parsed) or fail with "An unexpected error" (podcasts' window cutter)."""
    client, project = lead_client()
    project.kind = kind
    project.save()
    accepted = upload(client, project, ("notes.txt", b"Le conseil a vote.\n"), [transcript])
    assert accepted.status_code == 202, accepted.json()

    document_import_run(job_id=accepted.json()["id"])

    job = client.get(accepted["Location"]).json()
    assert job["status"] == "failed"
    assert job["error"] == complaint
    document = Document.objects.get(pk=job["document"])
    assert document.status == Document.Status.IMPORT_FAILED
    assert not TranscriptTurn.objects.filter(document=document).exists()
