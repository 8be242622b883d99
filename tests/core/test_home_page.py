import pytest


@pytest.mark.browser
@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_home_page_shows_service_status(live_server, page, celery_worker_process):
    page.goto(live_server.url + "/")

    status = page.get_by_test_id("health")
    status.wait_for()
    assert "database reachable" in status.inner_text()
    assert "worker" in status.inner_text()
    assert page.title() == "Tandem"


@pytest.mark.django_db
def test_unknown_browser_routes_get_the_app_shell(client):
    response = client.get("/projects/1/documents/2")

    assert response.status_code == 200
    assert b'<div id="root">' in b"".join(response.streaming_content)
