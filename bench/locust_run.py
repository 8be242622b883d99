"""Running bench/locustfile.py headless and reading its figures, for the benches that put
a live server under load (api_load.py, many_documents.py --clients)."""

from __future__ import annotations

import csv
import importlib.util
import json
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path

LOCUSTFILE = Path(__file__).resolve().parent / "locustfile.py"


def require_locust(bench: str) -> None:
    if importlib.util.find_spec("locust") is None:
        sys.exit(
            f"{bench} drives the load with locust, a test tool: install the test tools first "
            "(scripts/test does, or `.venv/bin/pip install -r requirements-dev.txt`)."
        )


def bench_token(user) -> str:
    """A new API token for this run, the user's earlier bench tokens revoked: an account
    holds at most `MAX_ACTIVE_TOKENS` active ones, so a database benched that many times
    would refuse the next run's."""
    from backend.accounts.models import ApiToken
    from backend.accounts.services import api_token_create, api_token_revoke

    earlier = ApiToken.objects.filter(user=user, name=BENCH_TOKEN, revoked_at__isnull=True)
    for token_id in earlier.values_list("pk", flat=True):
        api_token_revoke(user=user, token_id=token_id)
    return api_token_create(user=user, name=BENCH_TOKEN)[1]


BENCH_TOKEN = "bench"


def run_locust(
    *,
    user_class: str,
    setup: dict,
    host: str,
    users: int,
    spawn_rate: float,
    duration: int,
    think_time: tuple[float, float],
    tag: str | None = None,
    request_log: Path | None = None,
) -> dict[str, dict[str, str]]:
    """Locust's statistics rows by request name (and "Aggregated"), as its CSV gives them;
    with `request_log`, each request also gets a line there (`requests_after`)."""
    with tempfile.TemporaryDirectory() as folder:
        setup_file = Path(folder) / "setup.json"
        setup_file.write_text(json.dumps(setup))
        prefix = Path(folder) / "figures"
        command = [
            sys.executable, "-m", "locust", "-f", str(LOCUSTFILE), user_class,
            "--headless", "--only-summary",
            "-u", str(users), "-r", str(spawn_rate), "-t", f"{duration}s",
            "--host", host, "--csv", str(prefix), "--stop-timeout", "10",
            *(["--tags", tag] if tag else []),
        ]  # fmt: skip
        env = {
            **os.environ,
            "TANDEM_BENCH_SETUP": str(setup_file),
            "TANDEM_BENCH_WAIT_MIN": str(think_time[0]),
            "TANDEM_BENCH_WAIT_MAX": str(think_time[1]),
            **({"TANDEM_BENCH_REQUEST_LOG": str(request_log)} if request_log else {}),
        }
        finished = subprocess.run(command, env=env, check=False, capture_output=True, text=True)
        stats = Path(f"{prefix}_stats.csv")
        if not stats.exists():
            sys.exit(
                f"locust wrote no figures ({user_class}{f', {tag}' if tag else ''}; exit code "
                f"{finished.returncode}):\n"
                + (finished.stderr.strip() or finished.stdout.strip())[-2000:]
            )
        with stats.open() as handle:
            return {row["Name"]: row for row in csv.DictReader(handle)}


def latency(row: dict[str, str]) -> dict[str, float | int]:
    return {
        "requests": int(row["Request Count"]),
        "errors": int(row["Failure Count"]),
        "median_ms": float(row["50%"]),
        "p95_ms": float(row["95%"]),
        "p99_ms": float(row["99%"]),
        "max_ms": round(float(row["Max Response Time"]), 1),
    }


def requests_after(request_log: Path, name: str, warm_up: float) -> dict[str, float | int]:
    """`latency`'s figures for the requests named `name` sent once `warm_up` seconds have
    passed since the first request of the run: the steady state, without the queue that
    every client's first request makes when all of them start in the same second."""
    rows = [line.split("\t") for line in request_log.read_text().splitlines()]
    first = min(float(row[0]) for row in rows)
    kept = [row for row in rows if row[1] == name and float(row[0]) >= first + warm_up]
    times = sorted(float(row[2]) for row in kept)
    if not times:
        sys.exit(f"no {name!r} request was sent after the first {warm_up} s: run longer")
    return {
        "requests": len(times),
        "errors": sum(int(row[3]) for row in kept),
        "median_ms": round(_nearest_rank(times, 0.50), 1),
        "p95_ms": round(_nearest_rank(times, 0.95), 1),
        "p99_ms": round(_nearest_rank(times, 0.99), 1),
        "max_ms": round(times[-1], 1),
    }


def _nearest_rank(ordered: list[float], quantile: float) -> float:
    return ordered[max(0, math.ceil(quantile * len(ordered)) - 1)]
