import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient


@pytest.fixture
def user(db):
    return get_user_model().objects.create_user("ada", password="correct horse battery")


@pytest.fixture
def browser_client() -> APIClient:
    return APIClient(enforce_csrf_checks=True)


def test_anonymous_session_gets_a_csrf_token(browser_client, db):
    response = browser_client.get("/api/v1/auth/session/")

    assert response.status_code == 200
    assert response.json()["authenticated"] is False
    assert response.cookies["csrftoken"].value


def test_sign_in_needs_the_csrf_token_then_opens_a_session(browser_client, user):
    credentials = {"username": "ada", "password": "correct horse battery"}
    refused = browser_client.post("/api/v1/auth/session/", credentials, format="json")
    assert refused.status_code == 403
    assert "CSRF" in refused.json()["detail"]

    token = browser_client.get("/api/v1/auth/session/").json()["csrf_token"]
    signed_in = browser_client.post(
        "/api/v1/auth/session/", credentials, format="json", HTTP_X_CSRFTOKEN=token
    )

    assert signed_in.status_code == 200
    assert signed_in.json()["user"]["username"] == "ada"
    assert browser_client.get("/api/v1/auth/session/").json()["authenticated"] is True


def test_wrong_password_is_refused_with_a_reason(browser_client, user):
    token = browser_client.get("/api/v1/auth/session/").json()["csrf_token"]
    response = browser_client.post(
        "/api/v1/auth/session/",
        {"username": "ada", "password": "wrong"},
        format="json",
        HTTP_X_CSRFTOKEN=token,
    )

    assert response.status_code == 400
    assert response.json()["detail"] == "Unknown username or wrong password."


def test_sign_out_ends_the_session(user):
    client = APIClient()
    client.force_login(user)

    assert client.delete("/api/v1/auth/session/").status_code == 204
    assert client.get("/api/v1/auth/session/").json()["authenticated"] is False
