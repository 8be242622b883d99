"""The fault-injection suite, short: bench/faults.py against a stack of its own, like the
suite's (SQLite and the filesystem broker, or PostgreSQL and Redis, private instances it
starts, stops and starts again), with a worker killed, the database stopped and the broker
stopped in the middle of a pre-alignment. Every job must end succeeded, or failed with its
reason, with one pre-alignment per document, and every request during an outage answer 200
(a read while only the broker is down) or 503 with Retry-After.

The liveness rule runs on shortened settings and outages last seconds, so the whole run fits
in about a minute; the bench's defaults (20-s outages, the shipped liveness settings, three
runs) give the recovery times docs/workers.md quotes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from bench.faults import can_run_postgres_stack
from tests.tasks.conftest import MEETINGS_TO_INTERRUPT

ROOT = Path(__file__).resolve().parents[2]
SHORT_LIVENESS = {"TANDEM_JOB_HEARTBEAT_SECONDS": "1", "TANDEM_JOB_LOST_AFTER_SECONDS": "4"}
OUTAGE_SECONDS = "6"


def suite_stack() -> str:
    return "sqlite" if settings.CELERY_BROKER_URL.startswith("filesystem://") else "postgres"


def run_bench(stack: str) -> dict:
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "CELERY_BROKER_URL", "TANDEM_DATA_DIR")
    }
    completed = subprocess.run(
        [
            *(sys.executable, "-m", "bench.faults", "--stack", stack, "--runs", "1"),
            *("--outage", OUTAGE_SECONDS, "--meetings", ",".join(MEETINGS_TO_INTERRUPT)),
        ],
        cwd=ROOT,
        env={**environment, **SHORT_LIVENESS},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert completed.returncode == 0, completed.stderr[-6000:]
    return json.loads(completed.stdout)["stacks"][stack]


@pytest.mark.worker
@pytest.mark.slow
@pytest.mark.skipif(
    suite_stack() == "postgres" and not can_run_postgres_stack(),
    reason="the PostgreSQL stack starts private PostgreSQL and Redis servers: not installed",
)
def test_every_job_survives_a_killed_worker_and_database_and_broker_outages():
    stack = suite_stack()
    report = run_bench(stack)

    assert "error" not in report, f"{report.get('error')}; its stderr ends:\n{report.get('stderr')}"
    exited = report.get("workers_exited")
    for scenario in ("kill", "database", "broker"):
        (run,) = report[scenario]["runs"]
        assert run["checks_pass"], (scenario, run, exited)
        assert run["status"] == "succeeded", (scenario, run, exited)
    assert report["kill"]["runs"][0]["requeues"] == 1
    assert report["database"]["runs"][0]["answers_during_outage"].get("503")
    assert report["broker"]["runs"][0]["start_during_outage"]["status"] == 503
