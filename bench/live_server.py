"""The production web server (scripts/web: gunicorn) on a free loopback port, for the benches
that put a live server under load (bench.scale's writes and documents goals)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
BENCH_ENVIRONMENT = {
    "DJANGO_SECRET_KEY": "bench",
    "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
    "DJANGO_SECURE_COOKIES": "0",
    "DJANGO_DEBUG": "0",
}
"""What the server needs that a bench shell may not have set; what it has set wins."""


def bench_environment() -> dict[str, str]:
    return {**BENCH_ENVIRONMENT, **os.environ}


@contextmanager
def live_server(*, workers: int = 3, ready_within: float = 300) -> Iterator[str]:
    """Gunicorn with `workers` processes on the environment's database, migrated first; its
    base URL while the block runs, and the whole process group stopped after it. A worker
    imports the engine as it starts (backend/wsgi.py): seconds on an idle machine, over a
    minute on one shared with other work (load average 30), hence the long wait."""
    environment = bench_environment()
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--verbosity", "0"],
        cwd=ROOT,
        env=environment,
        check=True,
    )
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryFile(mode="w+") as log:
        server = subprocess.Popen(
            [str(ROOT / "scripts" / "web")],
            cwd=ROOT,
            env={
                **environment,
                "TANDEM_BIND": f"127.0.0.1:{port}",
                "WEB_CONCURRENCY": str(workers),
            },
            stdout=subprocess.DEVNULL,
            stderr=log,
            start_new_session=True,
        )
        try:
            _wait_until_answering(server, log, url, ready_within)
            yield url
        finally:
            if server.poll() is None:
                os.killpg(server.pid, signal.SIGTERM)
                server.wait(timeout=30)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_until_answering(
    server: subprocess.Popen, log: IO[str], url: str, ready_within: float
) -> None:
    """Any HTTP answer will do: /health/ says 503 while no Celery worker runs, and a bench
    of the web server needs none."""
    deadline = time.monotonic() + ready_within
    while time.monotonic() < deadline:
        if server.poll() is not None:
            log.seek(0)
            sys.exit(f"the web server exited with {server.returncode}:\n{log.read()[-2000:]}")
        try:
            urllib.request.urlopen(f"{url}/health/", timeout=5)
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.5)
    sys.exit(f"the web server did not answer at {url} within {ready_within} s")
