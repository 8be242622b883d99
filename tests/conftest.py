"""Fixtures that start the real things: a Celery worker process and headless Chromium.

Django and Celery are imported inside the fixtures, so that the engine's tests
(tests/align) also run without Django: `pytest -p no:django tests/align`.
"""

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

WORKER_START_TIMEOUT_SECONDS = 90
WORKER_QUEUES = "default,cpu"
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


def test_database_url() -> str:
    """The URL of the database pytest-django created, for processes started by the tests."""
    from django.db import connection

    db = connection.settings_dict
    if db["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{db['NAME']}"
    credentials = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{credentials}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"


test_database_url.__test__ = False  # a helper, not a test


@dataclass
class WorkerProcess:
    process: subprocess.Popen
    name: str
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


_STARTED_WORKERS: list[WorkerProcess] = []
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


def _wait_for_worker(worker: WorkerProcess) -> None:
    from workers.celery import app as celery_app

    deadline = time.monotonic() + WORKER_START_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        if worker.process.poll() is not None:
            code = worker.process.returncode
            pytest.fail(f"The Celery worker exited with {code}:\n{worker.log()}")
        if celery_app.control.ping(destination=[worker.name], timeout=1.0):
            return
    waited = WORKER_START_TIMEOUT_SECONDS
    pytest.fail(f"The Celery worker did not answer within {waited}s:\n{worker.log()}")


def start_worker(
    log_dir: Path, concurrency: int = 2, env: dict[str, str] | None = None
) -> WorkerProcess:
    """`env` adds to the test process's environment, e.g. a short CELERY_VISIBILITY_TIMEOUT."""
    name = f"test-{uuid.uuid4().hex[:8]}@%h"
    log_path = log_dir / f"{name.split('@')[0]}.log"
    env = {**os.environ, "DATABASE_URL": test_database_url(), **(env or {})}
    command = [
        sys.executable, "-m", "celery", "-A", "workers", "worker",
        "--loglevel", "INFO", "--concurrency", str(concurrency), "--queues", WORKER_QUEUES,
        "--hostname", name, "--without-mingle", "--without-gossip",
    ]  # fmt: skip
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
    worker = WorkerProcess(process, name.replace("%h", _hostname()), log_path)
    _STARTED_WORKERS.append(worker)
    _wait_for_worker(worker)
    return worker


def stop_worker(worker: WorkerProcess) -> None:
    if worker in _STARTED_WORKERS:
        _STARTED_WORKERS.remove(worker)
    if worker.process.poll() is None:
        worker.process.terminate()
        try:
            worker.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            worker.process.kill()
            worker.process.wait()


def _hostname() -> str:
    import socket

    return socket.gethostname()


def purge_queues() -> None:
    """Tests without a worker still queue tasks (uploads, pre-alignments, tuning) that nobody
    consumes. A worker started later would run them on jobs of other tests: SQLite reuses the
    ids of rolled-back rows, so a stale pre-alignment message can name a later import job."""
    from workers.celery import app as celery_app

    with celery_app.connection_for_write() as connection:
        for queue in WORKER_QUEUES.split(","):
            connection.default_channel.queue_purge(queue)


@pytest.fixture(scope="session")
def celery_worker_process(
    django_db_setup, django_db_blocker, tmp_path_factory
) -> Iterator[WorkerProcess]:
    """A real worker on the test database, starting on empty queues; stopped before the test
    database is dropped."""
    purge_queues()
    with django_db_blocker.unblock():
        worker = start_worker(tmp_path_factory.mktemp("worker"))
    yield worker
    stop_worker(worker)


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


@pytest.fixture
def page(browser) -> Iterator:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    yield page
    context.close()
