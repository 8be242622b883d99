"""Adding members: a lead names a colleague by username (or by id); a bad name is a 400 that
says which, and nothing is added."""

import pytest
from django.contrib.auth import get_user_model

from backend.projects.models import Membership


def members_url(world) -> str:
    return f"/api/v1/projects/{world.project.pk}/members/"


def test_a_lead_adds_a_member_by_username(world):
    response = world.client("lead").post(
        members_url(world), {"username": "outsider", "role": "annotator"}, format="json"
    )

    assert response.status_code == 201
    assert response.json()["username"] == "outsider"
    assert response.json()["user"] == world.outsider.pk
    assert Membership.objects.get(project=world.project, user=world.outsider).role == "annotator"


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ({"username": "nobody", "role": "lead"}, "There is no active user named 'nobody'."),
        ({"role": "lead"}, "Name the new member by `username` or by `user` id, one of the two."),
        (
            {"username": "outsider", "user": 1, "role": "lead"},
            "Name the new member by `username` or by `user` id, one of the two.",
        ),
    ],
)
def test_a_member_named_badly_is_refused_with_the_reason(world, body, problem):
    before = Membership.objects.count()

    response = world.client("lead").post(members_url(world), body, format="json")

    assert response.status_code == 400
    assert response.json()["detail"] == problem
    assert Membership.objects.count() == before


def test_an_inactive_user_cannot_be_added_by_name(world):
    get_user_model().objects.filter(pk=world.outsider.pk).update(is_active=False)

    response = world.client("lead").post(
        members_url(world), {"username": "outsider", "role": "annotator"}, format="json"
    )

    assert response.status_code == 400
    assert "outsider" in response.json()["detail"]
    assert not Membership.objects.filter(user=world.outsider).exists()


def test_adding_a_member_twice_is_a_conflict(world):
    response = world.client("lead").post(
        members_url(world), {"username": "annotator", "role": "lead"}, format="json"
    )

    assert response.status_code == 409
    assert "annotator is already a member" in response.json()["detail"]
