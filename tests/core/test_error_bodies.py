"""Errors say what went wrong without leaking how Tandem is deployed, and always in the API's
JSON shape: no broker address in a 503, no host names or error texts in an anonymous health
check, no exception class in a failed import, JSON for a 500 and for a body over the limit."""

import io
import json
import zipfile

import pytest
from django.conf import settings
from django.test import RequestFactory
from django.urls import get_resolver

from backend.core.database_outage import RETRY_AFTER_SECONDS
from backend.curation.public_meetings import raw_files
from backend.documents.models import Document
from backend.documents.services import document_import_run
from backend.jobs.models import Job
from tests.documents.test_import_job import SMALL_MEETING, upload
from tests.domain import build_world
from tests.openapi import assert_matches_schema, openapi_schema


@pytest.fixture
def world(db):
    return build_world()


def test_a_503_names_no_broker_address(world, broker_down):
    response = world.client("lead").post(f"/api/v1/projects/{world.project.pk}/word-vectors/")

    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS), "an outage passes: try again"
    assert list(response.json()) == ["detail"]
    assert "unreachable" in response.json()["detail"]
    assert "127.0.0.1" not in response.content.decode()
    assert ":9" not in response.content.decode()


def test_anonymous_health_shows_reachability_only(world, broker_down):
    anonymous = world.client("anonymous").get("/api/v1/health/").json()
    staff = world.client("admin").get("/api/v1/health/").json()

    assert anonymous["broker"] == {"ok": False, "detail": "unreachable"}
    assert anonymous["workers"] == {
        "ok": False,
        "detail": "no worker answered",
        "count": 0,
        "names": [],
    }
    assert "127.0.0.1" not in json.dumps(anonymous)
    assert staff["broker"]["ok"] is False
    assert staff["broker"]["detail"] not in ("", "unreachable"), "staff see the error"
    assert world.client("lead").get("/api/v1/health/").json()["broker"]["detail"] == "unreachable"


def docx_with_broken_xml() -> bytes:
    """A real meeting's report whose document.xml no longer parses."""
    report, _ = raw_files(SMALL_MEETING)
    source = zipfile.ZipFile(io.BytesIO(report.read_bytes()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            data = source.read(item)
            if item.filename == "word/document.xml":
                data = data[: len(data) // 2]
            target.writestr(item, data)
    return out.getvalue()


def test_an_import_of_malformed_xml_says_so_without_internals(world):
    _, parts = raw_files(SMALL_MEETING)
    accepted = upload(
        world.client("lead"),
        world.project,
        ("report.docx", docx_with_broken_xml()),
        [(part.name, part.read_bytes()) for part in parts],
    )
    assert accepted.status_code == 202, accepted.json()

    document_import_run(job_id=accepted.json()["id"])

    job = Job.objects.get(pk=accepted.json()["id"])
    assert job.status == Job.Status.FAILED
    assert job.error.startswith("report.docx: whole file: the .docx holds malformed XML")
    assert "XMLSyntaxError" not in job.error
    assert Document.objects.get(pk=job.document_id).import_error == job.error


def test_an_api_500_is_json_and_quotes_nothing():
    handler = get_resolver().resolve_error_handler(500)
    request = RequestFactory().get("/api/v1/projects/1/")

    response = handler(request)

    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert json.loads(response.content) == {
        "detail": "Internal server error: the failure is logged for the administrators."
    }
    assert handler(RequestFactory().get("/projects/1")).status_code == 500


def test_a_json_body_over_the_limit_is_413_naming_it(world):
    too_big = json.dumps({"description": "x" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE})

    response = world.client("lead").generic(
        "PATCH",
        f"/api/v1/projects/{world.project.pk}/",
        too_big,
        content_type="application/json",
    )

    assert response.status_code == 413
    assert response.json()["limit_bytes"] == settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    assert "larger than 10 MB" in response.json()["detail"]
    world.project.refresh_from_db()
    assert world.project.description == ""


COMMON_ERRORS = ("400", "401", "403", "404", "503")


def test_every_operation_documents_its_errors_with_one_body():
    """77 of 84 operations used to document only their 2xx answers, so no error body was
    ever checked against the schema (here, by assert_matches_schema and by schemathesis)."""
    undocumented = [
        f"{method.upper()} {path} {status}"
        for path, operations in openapi_schema()["paths"].items()
        for method, operation in operations.items()
        for status in COMMON_ERRORS + (("409", "413", "415") if method != "get" else ())
        if "application/json" not in operation["responses"].get(status, {}).get("content", {})
    ]

    assert undocumented == []
    error = openapi_schema()["components"]["schemas"]["Error"]
    assert error["required"] == ["detail"]
    assert error["properties"]["detail"] == {"type": "string"}


def project_path(world, suffix: str = "") -> str:
    return f"/api/v1/projects/{world.project.pk}/{suffix}"


@pytest.mark.parametrize(
    ("who", "method", "path", "body", "status", "detail"),
    [
        ("lead", "post", lambda w: "/api/v1/projects/", {}, 400, "name: This field is required."),
        ("lead", "patch", project_path, "{", 400, "JSON parse error"),
        ("anonymous", "get", project_path, None, 401, "credentials were not provided"),
        ("annotator", "patch", project_path, {"name": "x"}, 403, "permission"),
        ("lead", "get", lambda w: project_path(w, "jobs/999999/"), None, 404, "has no job 999999"),
    ],
)
def test_error_answers_match_the_schema(world, who, method, path, body, status, detail):
    client = world.client(who)
    url = path(world)
    if isinstance(body, str):
        response = client.generic(method.upper(), url, body, content_type="application/json")
    else:
        response = getattr(client, method)(url, body, format="json")

    assert response.status_code == status, response.content[:300]
    data = assert_matches_schema(response, method.upper())
    assert detail in data["detail"]


def test_a_conflict_answers_in_the_one_shape(world):
    lead = world.client("lead")
    cancel = project_path(world, f"jobs/{world.job.pk}/cancel/")
    assert lead.post(cancel).status_code == 200

    again = lead.post(cancel)

    assert again.status_code == 409
    assert assert_matches_schema(again, "POST") == {
        "detail": f"Job {world.job.pk} already cancelled; there is nothing to cancel."
    }
