"""Inputs that used to reach the database driver or the JSON parser unchecked and answer 500:
ids at or above 2^63 (SQLite raises OverflowError), bodies nested thousands of levels deep
(RecursionError), 400-digit numbers in imports, and project settings of the wrong type."""

import io
import json

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from backend.alignments.models import ParameterSet
from backend.core.ids import ID_MAX
from backend.core.parsers import MAX_JSON_DEPTH
from backend.documents.models import Document
from backend.iterations.models import Iteration
from backend.projects.models import Project
from tests.domain import build_world

TOO_BIG = 2**63
METHODS = ("get", "post", "patch", "delete")


@pytest.fixture
def world(db):
    return build_world()


def id_routes(patterns=None, prefix: str = "") -> list[str]:
    """Every URL pattern with an `<id:...>` converter, as a route string."""
    routes = []
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            routes += id_routes(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern) and "<id:" in route:
            routes.append(route)
    return routes


def fill(route: str, values: dict[str, int], last: int | None = None) -> str:
    """The route with its ids from `values` (TOO_BIG when absent), the last one `last`."""
    path = route
    while "<id:" in path:
        start = path.index("<id:")
        end = path.index(">", start)
        value = values.get(path[start + 4 : end], TOO_BIG)
        if last is not None and "<id:" not in path[end:]:
            value = last
        path = path[:start] + str(value) + path[end + 1 :]
    return "/" + path


def test_every_id_route_is_checked():
    routes = id_routes()
    assert len(routes) > 30
    assert all(route.startswith("api/v1/") for route in routes)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("who", ["lead", "admin"])
def test_an_id_above_a_bigint_in_any_url_is_not_found(world, method, who):
    client = world.client(who)
    real = {
        "project_id": world.project.pk,
        "document_id": world.document.pk,
        "iteration_id": world.iteration.pk,
        "job_id": world.job.pk,
    }
    for route in id_routes():
        for url in (fill(route, {}), fill(route, real, last=TOO_BIG)):
            response = getattr(client, method)(url)
            assert response.status_code == 404, (url, response.status_code)
            assert response.json() == {"detail": "Not found."}, url
    assert client.get(fill("api/v1/projects/<id:project_id>/", {}, last=ID_MAX)).status_code in (
        403,
        404,
    )


def parameter_set(world) -> int:
    return ParameterSet.objects.get(project=world.project, name="engine").pk


# (method, url under the project, body) where an id or count is TOO_BIG
BIG_IDS = [
    ("post", "/iterations/", lambda w: {"documents": [TOO_BIG]}),
    (
        "post",
        "/iterations/",
        lambda w: {
            "documents": [w.unassigned_document.pk],
            "assignments": [{"document": w.unassigned_document.pk, "annotators": [TOO_BIG]}],
        },
    ),
    ("post", "/pre-alignments/", lambda w: {"parameter_set": TOO_BIG, "iteration": 1}),
    ("post", "/pre-alignments/", lambda w: {"parameter_set": 1, "documents": [TOO_BIG]}),
    ("post", "/pre-alignments/", lambda w: {"parameter_set": 1, "iteration": TOO_BIG}),
    ("post", "/tuning-runs/", lambda w: {"gold_documents": [TOO_BIG]}),
    ("patch", "/", lambda w: {"promoted_parameter_set": TOO_BIG}),
    ("post", "/members/", lambda w: {"user": TOO_BIG, "role": "annotator"}),
    ("patch", "/documents/{document}/", lambda w: {"assignees": [TOO_BIG]}),
    ("patch", "/documents/{document}/", lambda w: {"iteration": TOO_BIG}),
    ("post", "/iterations/{iteration}/promote/", lambda w: {"candidate": TOO_BIG}),
    ("post", "/iterations/{iteration}/promote/", lambda w: {"parameter_set": TOO_BIG}),
    (
        "post",
        "/documents/{document}/annotation/",
        lambda w: {
            "version": TOO_BIG,
            "operations": [{"action": "unalign", "first_turn": 0, "last_turn": 1}],
        },
    ),
    (
        "post",
        "/documents/{document}/annotation/",
        lambda w: {
            "version": 0,
            "operations": [{"action": "unalign", "first_turn": TOO_BIG, "last_turn": TOO_BIG}],
        },
    ),
    ("post", "/documents/{document}/annotation/submit/", lambda w: {"version": TOO_BIG}),
    ("get", "/documents/?assignee=" + str(TOO_BIG), None),
    ("get", "/documents/?iteration=" + str(TOO_BIG), None),
    ("get", "/dashboard/tuning/?iteration=" + str(TOO_BIG), None),
]


@pytest.mark.parametrize(("method", "suffix", "body"), BIG_IDS)
def test_an_id_above_a_bigint_in_a_body_or_query_is_refused(world, method, suffix, body):
    url = f"/api/v1/projects/{world.project.pk}" + suffix.format(
        document=world.document.pk, iteration=world.iteration.pk
    )
    who = "annotator" if "annotation" in suffix else "lead"

    response = getattr(world.client(who), method)(url, body(world) if body else None, format="json")

    assert response.status_code == 400, (url, response.status_code, response.content[:300])
    assert any(
        problem in json.dumps(response.json())
        for problem in ("less than or equal to", "must be an id within", "does not exist")
    ), response.json()


@pytest.mark.parametrize(
    ("method", "suffix", "body"), [(m, s, b) for m, s, b in BIG_IDS if b is not None]
)
def test_a_number_beyond_a_float_in_any_json_body_is_refused(world, method, suffix, body):
    """`1e999999` reads as infinity; as an id it reached the ORM (500). The parser refuses it
    for every endpoint, in any field."""
    url = f"/api/v1/projects/{world.project.pk}" + suffix.format(
        document=world.document.pk, iteration=world.iteration.pk
    )
    who = "annotator" if "annotation" in suffix else "lead"
    raw = json.dumps(body(world)).replace(str(TOO_BIG), "1e999999")

    response = world.client(who).generic(method.upper(), url, raw, content_type="application/json")

    assert response.status_code == 400, (url, response.status_code, response.content[:300])
    assert response.json()["detail"] == (
        "JSON parse error - the number 1e999999 is too large for a float"
    )


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 100_000])
def test_a_deeply_nested_json_body_is_refused(world, depth):
    response = world.client("lead").generic(
        "POST",
        f"/api/v1/projects/{world.project.pk}/iterations/",
        nested(depth),
        content_type="application/json",
    )

    assert response.status_code == 400
    assert f"deeper than {MAX_JSON_DEPTH} levels" in response.json()["detail"]
    assert Iteration.objects.filter(project=world.project).count() == 1


def upload(client, url: str, field: str, name: str, data: bytes):
    file = io.BytesIO(data)
    file.name = name
    return client.post(url, {field: file}, format="multipart")


def test_a_deeply_nested_public_meetings_file_is_refused(world):
    response = upload(
        world.client("lead"),
        f"/api/v1/projects/{world.project.pk}/documents/public-meetings/",
        "file",
        "meetings.json",
        nested(100_000).encode(),
    )

    assert response.status_code == 400
    assert "nests too deeply" in response.json()["detail"]


def test_a_deeply_nested_whisper_transcript_is_refused_at_upload(world):
    report = io.BytesIO(b"M. Dupont : Bonjour a tous.\n")
    report.name = "report.txt"
    transcript = io.BytesIO(('{"segments": ' + nested(100_000) + "}").encode())
    transcript.name = "whisper.json"

    response = world.client("lead").post(
        f"/api/v1/projects/{world.project.pk}/documents/",
        {"report": report, "transcript": [transcript]},
        format="multipart",
    )

    assert response.status_code == 400
    assert "whisper.json: whole file: the JSON nests too deeply" in response.json()["detail"]
    assert not Document.objects.filter(project=world.project, name="whisper").exists()


def test_a_huge_number_in_a_public_meetings_import_names_the_item(world):
    side = {
        "doc": [{"id": "0_0_0", "text": "<nom> m. dupont </nom> <p> bonjour . </p>"}],
        "ctm": [{"id": "0_0_0", "text": "bonjour", "aligned": "0_0_0", "start": 10**400}],
    }
    response = upload(
        world.client("lead"),
        f"/api/v1/projects/{world.project.pk}/documents/public-meetings/",
        "file",
        "meetings.json",
        json.dumps({"m1": {"final": side}}).encode(),
    )

    assert response.status_code == 400
    assert "must be a number of seconds" in response.json()["detail"]


@pytest.mark.parametrize(
    ("settings", "problem"),
    [
        ({"trusted_confidence": "high"}, "A valid number is required."),
        ({"trusted_confidence": 1.5}, "less than or equal to 1"),
        ({"trusted_confidnce": 0.5}, "Unknown settings ['trusted_confidnce']"),
        ("high", "Invalid data"),
    ],
)
def test_project_settings_of_the_wrong_kind_are_refused(world, settings, problem):
    url = f"/api/v1/projects/{world.project.pk}/"

    response = world.client("lead").patch(url, {"settings": settings}, format="json")

    assert response.status_code == 400
    assert problem in json.dumps(response.json())
    world.project.refresh_from_db()
    assert world.project.settings == {}
    assert world.client("lead").get(f"{url}dashboard/corpus/").status_code == 200


def test_valid_project_settings_are_stored_and_read(world):
    url = f"/api/v1/projects/{world.project.pk}/"

    response = world.client("lead").patch(
        url, {"settings": {"trusted_confidence": 0.9}}, format="json"
    )

    assert response.status_code == 200
    assert response.json()["settings"] == {"trusted_confidence": 0.9}
    assert Project.objects.get(pk=world.project.pk).settings == {"trusted_confidence": 0.9}
