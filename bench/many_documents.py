"""A project of thousands of documents, as JSON: builds one of `--documents` documents from the
corpus's four smallest meetings (every other one with gold, the rest with a pre-alignment
and confidences), then times every list, dashboard and export endpoint a lead's pages call,
one request at a time (medians of `--repeat`), with each response's size.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tandem_bench DJANGO_SECRET_KEY=bench \\
        .venv/bin/python -m bench.many_documents [--documents 2000] [--repeat 3] \\
        [--reuse] [--clients 50 --host http://127.0.0.1:8090 [--duration 60]]

It migrates the database it is given and builds a fresh project there (about a minute and a
half for 2,000 documents on PostgreSQL), or with `--reuse` takes the latest one it built of
that size. With `--clients`, locust's `Lead` users (bench/locustfile.py) then read the lead's
pages' endpoints (every one above but the two pair downloads) from a live server on the same
database (scripts/web, gunicorn), and the figures per endpoint are added. Without
DATABASE_URL it works in SQLite in a temporary folder.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

from bench.machine import with_machine_load

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backend.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-many-documents")
os.environ["DJANGO_ALLOWED_HOSTS"] = "testserver"
if "DATABASE_URL" not in os.environ:
    os.environ["TANDEM_DATA_DIR"] = tempfile.mkdtemp(prefix="tandem-many-bench-")

SMALLEST_MEETINGS = 4
TARGET_MS = {"one_client_export_preview": 300, "concurrent_p95": 300}
"""Issue #38's goals: the export preview of 2,000 documents within 300 ms, and every list
and dashboard within a p95 of 300 ms under 50 leads at once."""
ENDPOINTS = (
    "documents/",
    "documents/?page=20",
    "iterations/",
    "jobs/",
    "members/",
    "dashboard/accuracy/",
    "dashboard/effort/",
    "dashboard/corpus/",
    "dashboard/agreement/",
    "dashboard/jobs/",
    "exports/preview/",
    "exports/preview/?include_automatic=true",
    "exports/pairs.jsonl",
    "exports/pairs.jsonl?include_automatic=true",
)


def build_project(count: int):
    """Half gold (copies of the meetings with their reference as a submission), half
    automatic (the reference as a pre-alignment, with varied confidences)."""
    from django.contrib.auth import get_user_model

    from backend.alignments.services.pre_alignments import (
        parameter_set_get_or_create,
        pre_alignment_record,
    )
    from backend.curation.public_meetings import (
        corpus_meeting_import,
        public_meeting_gold_import,
    )
    from backend.projects.models import Membership, Project, Role
    from workers.align.corpus import load_public_meetings, smallest_meetings

    lead = get_user_model().objects.create_user(f"bench-{uuid.uuid4().hex[:8]}", password=None)
    project = Project.objects.create(name=project_name(count))
    Membership.objects.create(project=project, user=lead, role=Role.LEAD)
    meetings = load_public_meetings(smallest_meetings(SMALLEST_MEETINGS))
    engine = parameter_set_get_or_create(
        project=project, name="bench", params={"aligner": "diagonal"}, engine_version=""
    )
    for index in range(count):
        meeting = meetings[index % len(meetings)]
        copy = index // len(meetings)
        if index % 2 == 0:
            public_meeting_gold_import(
                actor=lead, project=project, meeting_id=meeting.id, copy=copy
            )
            continue
        assert meeting.reference is not None
        document = corpus_meeting_import(
            actor=lead, project=project, meeting=meeting, name=f"automatic {index}"
        )
        pre_alignment_record(
            document=document,
            parameter_set=engine,
            labels=list(meeting.reference),
            confidences=[(turn * 37 % 100) / 100 for turn in range(len(meeting.reference))],
        )
    _refresh_planner_statistics()
    return project, lead


def _refresh_planner_statistics() -> None:
    """PostgreSQL's autovacuum analyses a table some time after it grew; a project of
    thousands of documents in use has long been analysed, so the bench does not time
    queries planned for the empty tables of a fresh database (sequential scans instead of
    index reads: the corpus dashboard took 146 ms before ANALYZE and 80 ms after)."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


PREVIEW = "exports/preview/"
DOWNLOADS = ("exports/pairs.jsonl", "exports/pairs.jsonl?include_automatic=true")
"""Streams of tens of megabytes: timed one at a time, left out of the concurrent phase."""


def latest_project(count: int):
    from backend.projects.models import Membership, Project, Role

    project = Project.objects.filter(name=project_name(count)).order_by("-pk").first()
    if project is None:
        sys.exit(f"--reuse: no project {project_name(count)!r} in this database yet")
    lead = Membership.objects.filter(project=project, role=Role.LEAD).first()
    assert lead is not None
    return project, lead.user


def project_name(count: int) -> str:
    return f"Bench: {count} documents"


def concurrent(args, project, lead) -> dict:
    from bench.locust_run import bench_token, latency, run_locust

    endpoints = [
        url
        for url in ENDPOINTS
        if url not in DOWNLOADS and not any(url.startswith(prefix) for prefix in args.skip)
    ]
    setup = {
        "project_url": f"/api/v1/projects/{project.pk}/",
        "lead_endpoints": endpoints,
        "lead_token": bench_token(lead),
    }
    rows, machine = with_machine_load(
        lambda: run_locust(
            user_class="Lead",
            setup=setup,
            host=args.host,
            users=args.clients,
            spawn_rate=args.spawn_rate or args.clients,
            duration=args.duration,
            think_time=(0.5, 1.5),
        )
    )
    figures = {url: latency(rows[url]) for url in endpoints if url in rows}
    return {
        "clients": args.clients,
        "spawn_rate": args.spawn_rate or args.clients,
        "duration_s": args.duration,
        "skipped": args.skip,
        "endpoints": figures,
        "all": latency(rows["Aggregated"]),
        "target_p95_ms": TARGET_MS["concurrent_p95"],
        "meets_target": all(
            row["errors"] == 0 and row["p95_ms"] <= TARGET_MS["concurrent_p95"]
            for row in figures.values()
        ),
        "machine": machine,
    }


class PeakRss:
    """The process's resident memory sampled every few milliseconds while the block runs:
    requests are served in this process, so the peak over the RSS before is what serving one
    cost (the response is counted chunk by chunk, never held)."""

    PAGE = os.sysconf("SC_PAGE_SIZE")

    def __enter__(self) -> PeakRss:
        self.before = self.peak = self._rss()
        self._running = True
        self._sampler = threading.Thread(target=self._sample, daemon=True)
        self._sampler.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._running = False
        self._sampler.join()

    def _sample(self) -> None:
        while self._running:
            self.peak = max(self.peak, self._rss())
            time.sleep(0.005)

    def _rss(self) -> int:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * self.PAGE

    @property
    def growth_mib(self) -> float:
        return round((self.peak - self.before) / 2**20, 1)


def timed(client, url: str, repeat: int) -> dict:
    seconds, growth, size, status = [], [], 0, 0
    for _ in range(repeat):
        with PeakRss() as memory:
            started = time.perf_counter()
            response = client.get(url)
            chunks = response.streaming_content if response.streaming else [response.content]
            size = sum(len(chunk) for chunk in chunks)
            seconds.append(time.perf_counter() - started)
        growth.append(memory.growth_mib)
        status = response.status_code
    return {
        "status": status,
        "median_ms": round(1000 * statistics.median(seconds), 1),
        "bytes": size,
        "peak_rss_growth_mib": max(growth),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--reuse", action="store_true", help="take the latest project built")
    parser.add_argument("--clients", type=int, help="then this many concurrent leads")
    parser.add_argument("--host", default="http://127.0.0.1:8000", help="the live server")
    parser.add_argument("--duration", type=int, default=60, help="seconds, with --clients")
    parser.add_argument("--spawn-rate", type=float, help="leads started per second")
    parser.add_argument(
        "--skip",
        default="",
        type=lambda text: [prefix for prefix in text.split(",") if prefix],
        help="with --clients, leave out the endpoints starting with these, comma-separated "
        "(e.g. exports/preview)",
    )
    args = parser.parse_args()
    if args.clients:
        from bench.locust_run import require_locust

        require_locust("bench/many_documents.py --clients")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from rest_framework.test import APIClient

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    project, lead = latest_project(args.documents) if args.reuse else build_project(args.documents)
    built = time.perf_counter() - started
    client = APIClient()
    client.force_login(lead)
    prefix = f"/api/v1/projects/{project.pk}/"
    client.get(prefix)  # the process's first request loads every view: not a figure
    one_client, machine = with_machine_load(
        lambda: {url: timed(client, prefix + url, args.repeat) for url in ENDPOINTS}
    )
    previews = [one_client[url]["median_ms"] for url in ENDPOINTS if url.startswith(PREVIEW)]
    figures = {
        "documents": args.documents,
        "database": connection.vendor,
        "cpu_count": os.cpu_count(),
        "build_seconds": None if args.reuse else round(built, 1),
        "one_client": one_client,
        "export_preview": {
            "target_ms": TARGET_MS["one_client_export_preview"],
            "meets_target": max(previews) <= TARGET_MS["one_client_export_preview"],
        },
        "machine": machine,
    }
    if args.clients:
        figures["concurrent"] = concurrent(args, project, lead)
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
