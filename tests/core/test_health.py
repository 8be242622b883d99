import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from backend.celery import app as celery_app


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.mark.worker
@pytest.mark.django_db
def test_health_reports_every_service_up_with_a_real_worker(api, celery_worker_process):
    response = api.get("/api/v1/health/")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["ok"]
    assert body["broker"]["ok"]
    assert body["workers"]["count"] >= 1
    assert body["workers"]["names"] == [], "worker names are host names: for staff only"
    api.force_login(get_user_model().objects.create_superuser("staff", password=None))
    assert celery_worker_process.name in api.get("/api/v1/health/").json()["workers"]["names"]


@pytest.mark.django_db
def test_health_names_an_unreachable_broker(api, monkeypatch):
    unreachable = "redis://127.0.0.1:9/0"
    # Celery reads CELERY_BROKER_URL from the environment before its configuration.
    monkeypatch.setenv("CELERY_BROKER_URL", unreachable)
    monkeypatch.setitem(celery_app.conf, "broker_url", unreachable)

    response = api.get("/api/v1/health/")

    assert response.status_code == 200, "the database is up, so the web tier answers"
    body = response.json()
    assert body["status"] == "degraded"
    assert body["broker"]["ok"] is False
    assert body["broker"]["detail"] == "unreachable"
    api.force_login(get_user_model().objects.create_superuser("staff", password=None))
    detail = api.get("/api/v1/health/").json()["broker"]["detail"]
    assert "9" in detail or "refused" in detail.lower()


@pytest.mark.django_db
def test_openapi_schema_describes_the_health_endpoint(api):
    response = api.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")

    assert response.status_code == 200
    assert "/api/v1/health/" in response.json()["paths"]


@pytest.mark.django_db
def test_swagger_ui_is_served_without_a_cdn(api):
    response = api.get("/api/v1/docs/")

    assert response.status_code == 200
    html = response.content.decode()
    assert "swagger-ui" in html
    assert "cdn.jsdelivr" not in html
