"""Who may create a project, and so become its lead: TANDEM_PROJECT_CREATORS, everyone signed
in by default, or staff."""

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from backend.projects.models import Membership, Project, Role
from tests.domain import build_world, make_user


@pytest.fixture
def world(db):
    return build_world()


def test_everyone_signed_in_creates_projects_by_default(world):
    created = world.client("annotator").post("/api/v1/projects/", {"name": "mine"}, format="json")

    assert created.status_code == 201, created.json()
    assert Membership.objects.get(project_id=created.json()["id"]).role == Role.LEAD
    session = world.client("annotator").get("/api/v1/auth/session/").json()
    assert session["user"]["may_create_projects"] is True


@override_settings(TANDEM_PROJECT_CREATORS="staff")
def test_only_staff_create_projects_when_the_instance_says_so(world):
    staff = make_user("staff")
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    before = Project.objects.count()

    refused = world.client("annotator").post("/api/v1/projects/", {"name": "x"}, format="json")
    listed = world.client("annotator").get("/api/v1/projects/")
    session = world.client("annotator").get("/api/v1/auth/session/").json()

    assert refused.status_code == 403
    assert "TANDEM_PROJECT_CREATORS=staff" in refused.json()["detail"]
    assert Project.objects.count() == before
    assert listed.status_code == 200
    assert session["user"]["may_create_projects"] is False
    admin = world.client("admin").post("/api/v1/projects/", {"name": "a"}, format="json")
    assert admin.status_code == 201
    client = APIClient()
    client.force_login(staff)
    assert client.post("/api/v1/projects/", {"name": "s"}, format="json").status_code == 201
