"""Issue #22's goals 2 to 4 for `python -m bench.scale`: each runs the bench script that
measures it, as its own process, and returns that script's JSON, or says why it was not
measured (what it needs that this machine or shell lacks).

- editor: bench/editor_speed.py (headless Chromium on a day-long document);
- writes_under_load: bench/api_load.py (50 annotators' saves and editor loads) against
  gunicorn on PostgreSQL;
- many_documents: bench/many_documents.py (2,000 documents: every endpoint of a lead's pages
  one request at a time, then 50 concurrent leads on the lists and dashboards, the goal's
  pages; the export preview, which reads the whole corpus like an export, is left out of
  that phase) against the same kind of server;
- tuning_across_machines: bench/tuning_scaling.py (200 gold documents, 1, 2 and 4 worker
  processes).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bench.live_server import bench_environment, live_server

ROOT = Path(__file__).resolve().parent.parent


def editor() -> dict | str:
    chromium = os.environ.get("TANDEM_CHROMIUM", "/usr/bin/chromium")
    if not Path(chromium).exists():
        return f"not measured: needs Chromium at {chromium} (scripts/test installs it)"
    if not (ROOT / "frontend" / "dist" / "index.html").exists():
        return "not measured: needs the built frontend (scripts/test builds it)"
    return _bench_json(["bench/editor_speed.py", "--repeat", "1"])


def writes_under_load() -> dict | str:
    missing = _missing_postgresql() or _missing_locust()
    if missing:
        return missing
    with _throwaway_broker(), live_server() as url:
        return _bench_json(["bench/api_load.py", "--host", url, "--users", "50"])


def many_documents() -> dict | str:
    missing = _missing_postgresql() or _missing_locust()
    if missing:
        return missing
    with _throwaway_broker(), live_server() as url:
        documents = ["-m", "bench.many_documents", "--documents", "2000"]
        concurrent = ["--clients", "50", "--host", url, "--skip", "exports/preview"]
        return _bench_json([*documents, *concurrent])


def tuning_across_machines() -> dict | str:
    return _bench_json(["-m", "bench.tuning_scaling", "--workers", "1,2,4", "--documents", "200"])


GOALS = {
    "editor": editor,
    "writes_under_load": writes_under_load,
    "many_documents": many_documents,
    "tuning_across_machines": tuning_across_machines,
}


@contextmanager
def _throwaway_broker() -> Iterator[None]:
    """The web goals' imports queue word-vector trainings that no worker of theirs runs; on
    the shared broker, the tuning goal's workers would take them first (training vectors
    for 2,000 documents before the timed run). They queue in a folder dropped afterwards."""
    saved = {name: os.environ.get(name) for name in ("CELERY_BROKER_URL", "TANDEM_DATA_DIR")}
    with tempfile.TemporaryDirectory(prefix="tandem-bench-broker-") as folder:
        os.environ.pop("CELERY_BROKER_URL", None)
        os.environ["TANDEM_DATA_DIR"] = folder
        try:
            yield
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value


def _missing_postgresql() -> str | None:
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        return (
            "not measured: needs DATABASE_URL naming a PostgreSQL database of its own "
            "(the goal is PostgreSQL under 50 clients; the bench migrates it and adds projects)"
        )
    return None


def _missing_locust() -> str | None:
    if any(importlib.util.find_spec(tool) is None for tool in ("locust", "gunicorn")):
        return "not measured: needs locust and gunicorn (requirements-dev.txt, requirements.txt)"
    return None


def _bench_json(arguments: list[str]) -> dict:
    """The JSON a bench printed last on its standard output; its errors pass through."""
    finished = subprocess.run(
        [sys.executable, *arguments],
        cwd=ROOT,
        env=bench_environment(),
        stdout=subprocess.PIPE,
        text=True,
        check=False,
    )
    lines = finished.stdout.splitlines()
    starts = [index for index, line in enumerate(lines) if line == "{"]
    if finished.returncode != 0 or not starts:
        sys.exit(
            f"{' '.join(arguments)} failed (exit code {finished.returncode}):\n{finished.stdout}"
        )
    return json.loads("\n".join(lines[starts[-1] :]))
