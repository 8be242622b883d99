"""A project of thousands of documents, as JSON: builds one of `--documents` documents from the
corpus's four smallest meetings (every other one with gold, the rest with a pre-alignment
and confidences), then times every list, dashboard and export endpoint a lead's pages call,
one request at a time (medians of `--repeat`), with each response's size.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tandem_bench DJANGO_SECRET_KEY=bench \\
        .venv/bin/python -m bench.many_documents [--documents 2000] [--repeat 3]

It migrates the database it is given and builds a fresh project there (about a minute for
2,000 documents on PostgreSQL). Without DATABASE_URL it works in SQLite in a temporary folder.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backend.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-many-documents")
os.environ["DJANGO_ALLOWED_HOSTS"] = "testserver"
if "DATABASE_URL" not in os.environ:
    os.environ["TANDEM_DATA_DIR"] = tempfile.mkdtemp(prefix="tandem-many-bench-")

SMALLEST_MEETINGS = 4
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
    from backend.documents.public_meetings import (
        corpus_meeting_import,
        public_meeting_gold_import,
    )
    from backend.projects.models import Membership, Project, Role
    from workers.align.corpus import load_public_meetings, smallest_meetings

    lead = get_user_model().objects.create_user(f"bench-{uuid.uuid4().hex[:8]}", password=None)
    project = Project.objects.create(name=f"Bench: {count} documents")
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
    return project, lead


def timed(client, url: str, repeat: int) -> dict:
    seconds, size, status = [], 0, 0
    for _ in range(repeat):
        started = time.perf_counter()
        response = client.get(url)
        content = b"".join(response.streaming_content) if response.streaming else response.content
        seconds.append(time.perf_counter() - started)
        size, status = len(content), response.status_code
    return {
        "status": status,
        "median_ms": round(1000 * statistics.median(seconds), 1),
        "bytes": size,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from rest_framework.test import APIClient

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    project, lead = build_project(args.documents)
    built = time.perf_counter() - started
    client = APIClient()
    client.force_login(lead)
    prefix = f"/api/v1/projects/{project.pk}/"
    print(
        json.dumps(
            {
                "documents": args.documents,
                "database": connection.vendor,
                "cpu_count": os.cpu_count(),
                "build_seconds": round(built, 1),
                "one_client": {url: timed(client, prefix + url, args.repeat) for url in ENDPOINTS},
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
