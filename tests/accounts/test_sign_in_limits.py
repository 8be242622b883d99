"""Sign-in throttling: the attack from the hardening probe (hundreds of wrong passwords for
one account in under a minute) meets a 429 with Retry-After after the limit, per account and
per address, on the browser's sign-in and on the admin's login alike."""

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

LIMIT = settings.AXES_FAILURE_LIMIT
COOLOFF_SECONDS = int(settings.AXES_COOLOFF_TIME.total_seconds())
SESSION = "/api/v1/auth/session/"
PASSWORD = "correct horse battery"


@pytest.fixture
def ada(db):
    return get_user_model().objects.create_user("ada", password=PASSWORD)


@pytest.fixture
def grace(db):
    return get_user_model().objects.create_user("grace", password=PASSWORD, is_staff=True)


def sign_in(address: str, username: str, password: str):
    client = APIClient(REMOTE_ADDR=address)
    return client.post(SESSION, {"username": username, "password": password}, format="json")


def assert_throttled(response) -> None:
    assert response.status_code == 429
    assert response["Retry-After"] == str(COOLOFF_SECONDS)
    assert response.json()["retry_after"] == COOLOFF_SECONDS
    assert "Too many failed sign-ins" in response.json()["detail"]


def test_one_account_is_throttled_after_the_limit_whatever_the_address(ada, grace):
    for attempt in range(LIMIT - 1):
        refused = sign_in(f"10.0.0.{attempt + 1}", "ada", "wrong")
        assert refused.status_code == 400, "below the limit a wrong password is a plain 400"

    assert_throttled(sign_in("10.0.1.1", "ada", "wrong"))
    assert_throttled(sign_in("10.0.1.2", "ada", PASSWORD))
    assert sign_in("10.0.1.3", "grace", PASSWORD).status_code == 200


def test_one_address_is_throttled_after_the_limit_whatever_the_account(ada, grace):
    for attempt in range(LIMIT - 1):
        assert sign_in("10.0.0.9", f"nobody{attempt}", "wrong").status_code == 400

    assert_throttled(sign_in("10.0.0.9", "nobody", "wrong"))
    assert_throttled(sign_in("10.0.0.9", "grace", PASSWORD))
    assert sign_in("10.0.0.10", "grace", PASSWORD).status_code == 200


def test_a_successful_sign_in_clears_the_count(ada):
    for _ in range(LIMIT - 1):
        sign_in("10.0.0.5", "ada", "wrong")
    assert sign_in("10.0.0.5", "ada", PASSWORD).status_code == 200

    for _ in range(LIMIT - 1):
        assert sign_in("10.0.0.5", "ada", "wrong").status_code == 400


def test_the_admin_login_is_throttled_too(grace):
    client = APIClient(REMOTE_ADDR="10.0.0.7")
    form = {"username": "grace", "password": "wrong", "next": "/admin/"}
    for _ in range(LIMIT - 1):
        assert client.post("/admin/login/", form).status_code == 200, "the form again"

    assert client.post("/admin/login/", form).status_code == 429
    response = client.post("/admin/login/", {**form, "password": PASSWORD})

    assert response.status_code == 429
    assert response["Retry-After"] == str(COOLOFF_SECONDS)
    assert "Too many failed sign-ins" in response.content.decode()
