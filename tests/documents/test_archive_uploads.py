"""Decompression bombs are refused when uploaded, with a 400 that says why, and nothing is
stored; the limits come from the settings (TANDEM_ARCHIVE_*)."""

import pytest
from django.test import override_settings

from backend.curation.public_meetings import raw_files
from backend.documents.models import Document
from backend.documents.services import document_import_run
from backend.jobs.models import Job
from tests.align.readers.test_archive_limits import REAL_REPORT, paragraph_bomb, whitespace_bomb
from tests.documents.test_import_job import SMALL_MEETING, lead_client, upload


def real_report() -> tuple[str, bytes]:
    return "report.docx", REAL_REPORT.read_bytes()


def transcript_parts() -> list[tuple]:
    _, parts = raw_files(SMALL_MEETING)
    return [(part.name, part.read_bytes()) for part in parts]


@pytest.mark.parametrize(
    ("bomb", "problem"),
    [
        (paragraph_bomb, "inflates"),
        (whitespace_bomb, "inflates to 60."),
    ],
)
@pytest.mark.django_db
def test_a_decompression_bomb_is_refused_at_upload(bomb, problem):
    client, project = lead_client()

    response = upload(client, project, ("report.docx", bomb()), transcript_parts())

    assert response.status_code == 400
    detail = response.json()["detail"]
    assert detail.startswith("report.docx: refused as a decompression bomb: ")
    assert problem in detail
    assert not Document.objects.filter(project=project).exists()
    assert not Job.objects.filter(project=project).exists()


@override_settings(TANDEM_ARCHIVE_MAX_UNCOMPRESSED_BYTES=50_000)
@pytest.mark.django_db
def test_the_limits_are_read_from_the_settings():
    client, project = lead_client()

    response = upload(
        client, project, ("report.docx", REAL_REPORT.read_bytes()), transcript_parts()
    )

    assert response.status_code == 400
    assert "at most 49 KB are read" in response.json()["detail"]


@pytest.mark.django_db
def test_the_import_job_checks_the_archive_again_before_parsing():
    """A file stored under looser limits (or before there were any) is checked by the job."""
    client, project = lead_client()
    accepted = upload(
        client, project, ("report.docx", REAL_REPORT.read_bytes()), transcript_parts()
    )
    assert accepted.status_code == 202

    with override_settings(TANDEM_ARCHIVE_MAX_UNCOMPRESSED_BYTES=50_000):
        document_import_run(job_id=accepted.json()["id"])

    job = Job.objects.get(pk=accepted.json()["id"])
    assert job.status == Job.Status.FAILED
    assert job.error.startswith("report.docx: whole file: refused as a decompression bomb")
