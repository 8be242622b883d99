"""Behind the TLS proxy (`DJANGO_BEHIND_TLS_PROXY=1`, compose's default) the site is HTTPS
only: the web server, started as scripts/web starts it, redirects plain HTTP and sends
Strict-Transport-Security, except to the health check that probes call over plain HTTP."""

import http.client
import os
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT_SECONDS = 60


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_web(tmp_path: Path, **environment: str) -> Iterator[int]:
    """gunicorn through scripts/web on a free port with `environment`, until it answers."""
    port = free_port()
    env = {
        **os.environ,
        "TANDEM_DATA_DIR": str(tmp_path),
        "TANDEM_BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": "1",
        "DJANGO_ALLOWED_HOSTS": "tandem.example.org",
        **environment,
    }
    log = (tmp_path / "web.log").open("wb")
    server = subprocess.Popen(
        [str(ROOT / "scripts" / "web")], cwd=ROOT, env=env, stdout=log, stderr=log
    )
    try:
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while True:
            if server.poll() is not None:
                pytest.fail(f"the web server exited: {(tmp_path / 'web.log').read_text()}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("the web server did not start listening")
                time.sleep(0.2)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


def get(port: int, path: str, **headers: str) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", path, headers={"Host": "tandem.example.org", **headers})
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


@pytest.fixture
def behind_proxy(tmp_path: Path) -> Iterator[int]:
    yield from start_web(tmp_path, DJANGO_BEHIND_TLS_PROXY="1")


def test_plain_http_is_redirected_to_https(behind_proxy):
    response = get(behind_proxy, "/api/v1/projects/?page=2")

    assert response.status == 301
    assert response.headers["Location"] == "https://tandem.example.org/api/v1/projects/?page=2"


def test_https_through_the_proxy_gets_strict_transport_security(behind_proxy):
    response = get(behind_proxy, "/api/v1/projects/", **{"X-Forwarded-Proto": "https"})

    assert response.status == 401
    assert response.headers["Strict-Transport-Security"] == "max-age=31536000"


def test_the_health_check_answers_over_plain_http(behind_proxy):
    response = get(behind_proxy, "/api/v1/health/")

    assert response.status in (200, 503)
    assert "Strict-Transport-Security" not in response.headers


@pytest.fixture
def without_proxy(tmp_path: Path) -> Iterator[int]:
    yield from start_web(tmp_path, DJANGO_BEHIND_TLS_PROXY="0")


def test_without_the_proxy_nothing_is_redirected_or_pinned(without_proxy):
    response = get(without_proxy, "/api/v1/projects/", **{"X-Forwarded-Proto": "https"})

    assert response.status == 401
    assert "Strict-Transport-Security" not in response.headers
