"""Fixtures that start the real things: a Celery worker process and headless Chromium.

Django and Celery are imported inside the fixtures, so that the engine's tests
(tests/align) also run without Django: `pytest -p no:django tests/align`.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from backend.core.local_worker import LocalWorker

WORKER_START_TIMEOUT_SECONDS = 90
CHROMIUM_PATH = os.environ.get("TANDEM_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files holding slow tests go first, then those with worker tests: `scripts/test`
    runs a process per core and hands out whole files in this order, so a long file started
    last would leave one core alone at the end. Otherwise the order is unchanged (the sort
    is stable)."""
    rank: dict[object, int] = {}
    for item in items:
        if item.get_closest_marker("slow"):
            rank[item.path] = 0
        elif item.get_closest_marker("worker"):
            rank[item.path] = min(rank.get(item.path, 1), 1)
    items.sort(key=lambda item: rank.get(item.path, 2))


def test_database_url() -> str:
    """The URL of the database pytest-django created, for processes started by the tests."""
    from django.db import connection

    db = connection.settings_dict
    if db["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{db['NAME']}"
    credentials = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{credentials}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"


test_database_url.__test__ = False  # a helper, not a test


_STARTED_WORKERS: list[LocalWorker] = []
"""Workers the tests started and have not stopped, dead or alive."""


def fail_if_every_worker_died() -> None:
    """Called while a test waits for a job: when every worker it started has exited, fail at
    once with the last one's log rather than wait out the job's timeout."""
    if _STARTED_WORKERS and all(w.process.poll() is not None for w in _STARTED_WORKERS):
        worker = _STARTED_WORKERS[-1]
        pytest.fail(
            f"The Celery worker {worker.name} exited with {worker.process.returncode} while "
            f"the test waited for a job; the end of its log:\n{worker.log()[-6000:]}"
        )


def start_worker(
    log_dir: Path, concurrency: int = 2, env: dict[str, str] | None = None
) -> LocalWorker:
    """A worker on the test database; `env` adds to the test process's environment, e.g. a
    short CELERY_VISIBILITY_TIMEOUT."""
    from backend.core.local_worker import WorkerDidNotStart, start_local_worker

    try:
        worker = start_local_worker(
            log_dir,
            concurrency=concurrency,
            timeout=WORKER_START_TIMEOUT_SECONDS,
            env={"DATABASE_URL": test_database_url(), **(env or {})},
        )
    except WorkerDidNotStart as error:
        pytest.fail(str(error))
    _STARTED_WORKERS.append(worker)
    return worker


def stop_worker(worker: LocalWorker) -> None:
    if worker in _STARTED_WORKERS:
        _STARTED_WORKERS.remove(worker)
    worker.stop()


def purge_queues() -> None:
    """Tests without a worker still queue tasks (uploads, pre-alignments, tuning) that nobody
    consumes. A worker started later would run them on jobs of other tests: SQLite reuses the
    ids of rolled-back rows, so a stale pre-alignment message can name a later import job."""
    from backend.celery import app as celery_app
    from backend.core.local_worker import QUEUES

    with celery_app.connection_for_write() as connection:
        for queue in QUEUES.split(","):
            connection.default_channel.queue_purge(queue)


UNREACHABLE_BROKER = "redis://127.0.0.1:9/0"


@pytest.fixture
def broker_down(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every task sent fails to reach the broker. Celery's configuration is read first, with
    the suite's own broker URL: a test that first reads it with the unreachable one would
    leave the filesystem broker without its folders (`backend.celery.ensure_broker_folders`)
    for the rest of its process."""
    from backend.celery import app as celery_app

    _ = celery_app.conf.broker_url
    monkeypatch.setenv("CELERY_BROKER_URL", UNREACHABLE_BROKER)
    monkeypatch.setitem(celery_app.conf, "broker_url", UNREACHABLE_BROKER)


@pytest.fixture(scope="session")
def celery_worker_process(
    django_db_setup, django_db_blocker, tmp_path_factory
) -> Iterator[LocalWorker]:
    """A real worker on the test database, starting on empty queues; stopped before the test
    database is dropped."""
    purge_queues()
    with django_db_blocker.unblock():
        worker = start_worker(tmp_path_factory.mktemp("worker"))
    yield worker
    stop_worker(worker)


WORKER_QUIET_TIMEOUT_SECONDS = 30


def wait_until_workers_are_quiet() -> None:
    """Until no running worker holds a job or a task that has not stored its result.

    A tuning slice, a chord's header task, writes its result in django-celery-results after
    its body (job tasks write nothing there); a redelivered slice can still be writing when
    its run's job shows as finished, and a test that ends on that finish would have its
    database flushed while the write is under way: on PostgreSQL the flush's TRUNCATE and
    that transaction can deadlock. Tasks of workers that were killed never finish, so only
    live workers count."""
    from celery import states
    from django_celery_results.models import TaskResult

    from backend.jobs.models import Job

    deadline = time.monotonic() + WORKER_QUIET_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        live = [w.name for w in _STARTED_WORKERS if w.process.poll() is None]
        if not live:
            return
        busy = Job.objects.filter(status=Job.Status.RUNNING).exists() or (
            TaskResult.objects.filter(worker__in=live, status__in=states.UNREADY_STATES).exists()
        )
        if not busy:
            return
        time.sleep(0.1)


def _uses_transactional_db(request: pytest.FixtureRequest) -> bool:
    marker = request.node.get_closest_marker("django_db")
    return bool(marker and marker.kwargs.get("transaction")) or any(
        name in request.fixturenames for name in ("transactional_db", "live_server")
    )


LIVE_SERVER_QUIET_TIMEOUT_SECONDS = 10
LIVE_SERVER_QUIET_FOR_SECONDS = 0.3
LIVE_SERVER_THREAD_SUFFIX = "(process_request_thread)"


class LiveServerRequests:
    """The live server's requests under way, counted by Django's request signals on the
    server's own threads (it handles each connection on a thread of this process).

    Counting the server's threads instead is not the same: a thread lives as long as its
    connection, and Chromium can keep an idle keep-alive connection open after the context
    that made it has closed, so such a thread stays waiting for a request that never
    comes. Requests the test client makes on the test's own thread are not counted: a
    streamed response it never reads would never finish."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._under_way = 0
        self._last_change = time.monotonic()

    def connect(self) -> None:
        from django.core.signals import request_finished, request_started

        request_started.connect(self._started, weak=False, dispatch_uid=id(self))
        request_finished.connect(self._finished, weak=False, dispatch_uid=id(self))

    def _started(self, **_: object) -> None:
        self._count(+1)

    def _finished(self, **_: object) -> None:
        self._count(-1)

    def _count(self, change: int) -> None:
        if threading.current_thread().name.endswith(LIVE_SERVER_THREAD_SUFFIX):
            with self._lock:
                self._under_way += change
                self._last_change = time.monotonic()

    def quiet_for(self) -> float:
        """Seconds since the last request ended, or 0 while one is under way."""
        with self._lock:
            return 0.0 if self._under_way else time.monotonic() - self._last_change


_LIVE_SERVER_REQUESTS = LiveServerRequests()


@pytest.fixture(scope="session")
def live_server_requests() -> LiveServerRequests:
    _LIVE_SERVER_REQUESTS.connect()
    return _LIVE_SERVER_REQUESTS


def wait_until_live_server_is_quiet(requests: LiveServerRequests) -> None:
    """Until the live server has handled every request the closed pages sent.

    A page sends its last requests as it goes away (the editor's reading position, with
    `keepalive`), so they reach the server after the test's browser context has closed; on
    PostgreSQL their transaction and the flush's TRUNCATE can deadlock, and a request that
    comes after the flush leaves rows in the next test's database. The server is quiet once
    no request has been under way for a short while, which also covers a request still
    waiting in the listen queue."""
    deadline = time.monotonic() + LIVE_SERVER_QUIET_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        if requests.quiet_for() >= LIVE_SERVER_QUIET_FOR_SECONDS:
            return
        time.sleep(0.05)


@pytest.fixture(autouse=True)
def quiet_before_the_flush(request: pytest.FixtureRequest) -> Iterator[None]:
    """A transactional test's database is flushed only once the workers and the live server
    have stopped writing to it (see wait_until_workers_are_quiet and
    wait_until_live_server_is_quiet). Set up after the database, and before the test's own
    fixtures such as `page`, so that it ends after they have closed and before the flush."""
    if not _uses_transactional_db(request):
        yield
        return
    request.getfixturevalue("_django_db_helper")
    serves_pages = "live_server" in request.fixturenames
    requests = request.getfixturevalue("live_server_requests") if serves_pages else None
    yield
    if requests is not None:
        wait_until_live_server_is_quiet(requests)
    wait_until_workers_are_quiet()


@pytest.fixture(scope="session")
def browser() -> Iterator:
    from django.conf import settings
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM_PATH).exists():
        pytest.fail(f"Chromium is missing at {CHROMIUM_PATH}: install Debian's `chromium`.")
    if not (settings.FRONTEND_DIST / "index.html").exists():
        pytest.fail("frontend/dist is missing: build the frontend first (scripts/test does).")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM_PATH, headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


def csp_violations(page) -> list[str]:
    """What Chromium reports as blocked by the Content-Security-Policy on `page`, from the
    console (every violation is logged there) and from `securitypolicyviolation` events."""
    violations: list[str] = []
    page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    page.expose_function("reportCspViolation", lambda text: violations.append(text))
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', (event) => "
        "window.reportCspViolation(`${event.violatedDirective}: ${event.blockedURI}`));"
    )
    return violations


@pytest.fixture
def page(browser) -> Iterator:
    """A fresh page; a test fails if anything it loaded broke the Content-Security-Policy."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    violations = csp_violations(page)
    yield page
    context.close()
    assert not violations, f"Content-Security-Policy violations: {violations}"
