"""Requests while the database is unreachable answer 503 with Retry-After, not 500: the
connection is pointed, for real, at a database that cannot be reached (a SQLite file in a
folder that does not exist; a PostgreSQL port nobody listens on), after the session that
signs the client in was stored; pointed back, the same request answers again."""

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework.test import APIClient

from backend.core.database_outage import RETRY_AFTER_SECONDS, UNAVAILABLE_DETAIL
from backend.projects.models import Project
from tests.domain import build_world
from tests.openapi import assert_matches_schema

CLOSED_PORT = "9"


@pytest.fixture
def world(transactional_db):
    return build_world()


@contextmanager
def database_unreachable(folder: Path) -> Iterator[None]:
    saved = dict(connection.settings_dict)
    connection.close()
    if connection.vendor == "sqlite":
        connection.settings_dict["NAME"] = str(folder / "removed" / "tandem.sqlite3")
    else:
        connection.settings_dict.update(HOST="127.0.0.1", PORT=CLOSED_PORT)
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(saved)


def assert_unavailable(response) -> None:
    assert response.status_code == 503, response.content[:300]
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert response.json() == {"detail": UNAVAILABLE_DETAIL}


@pytest.mark.parametrize(
    ("method", "path", "body", "status"),
    [
        ("get", "/api/v1/projects/", None, 200),
        ("get", "/api/v1/projects/{project}/documents/", None, 200),
        ("patch", "/api/v1/projects/{project}/", {"name": "renamed"}, 200),
    ],
)
def test_a_signed_in_request_during_an_outage_answers_503(
    world, tmp_path, method, path, body, status
):
    client = world.client("lead")
    url = path.format(project=world.project.pk)

    with database_unreachable(tmp_path):
        response = getattr(client, method)(url, body, format="json")
    assert_unavailable(response)
    assert_matches_schema(response, method.upper())

    assert Project.objects.get(pk=world.project.pk).name == "A", "nothing was saved"
    assert getattr(client, method)(url, body, format="json").status_code == status


def test_a_page_outside_the_api_answers_503_too(world, tmp_path):
    staff = APIClient()
    staff.force_login(get_user_model().objects.create_superuser("staff", password=None))

    with database_unreachable(tmp_path):
        assert_unavailable(staff.get("/admin/"))

    assert staff.get("/admin/").status_code == 200
