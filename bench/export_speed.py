"""Export speed on the whole public_meetings corpus: imports its 22 meetings (with their
gold and initial alignments) through the public_meetings importer, then requests every
export format through the real views and prints JSON: seconds (median of `--repeat` runs),
bytes, pairs, and peak Python memory during one more run under tracemalloc.

    .venv/bin/python bench/export_speed.py [--repeat 3]

By default it works in a fresh SQLite database in a temporary folder; with DATABASE_URL set
it uses that database (migrated first) and deletes its project and user at the end.
"""

import argparse
import hashlib
import json
import os
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backend.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-export-speed")
os.environ["DJANGO_ALLOWED_HOSTS"] = "testserver"
if "DATABASE_URL" not in os.environ:
    os.environ["TANDEM_DATA_DIR"] = tempfile.mkdtemp(prefix="tandem-export-bench-")

FORMATS = ("pairs.jsonl", "pairs.csv", "parallel.zip", "huggingface.zip", "public-meetings.json")


def setup_project():
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    import public_meetings
    from django.contrib.auth import get_user_model

    from backend.accounts.services import api_token_create
    from backend.exports.services import public_meetings_import
    from backend.projects.models import Membership, Project, Role
    from workers.align.public_meetings_layout import parse_public_meetings

    lead, _ = get_user_model().objects.get_or_create(username="bench-export-lead")
    project = Project.objects.create(name="Bench: public_meetings exports")
    Membership.objects.create(project=project, user=lead, role=Role.LEAD)
    started = time.perf_counter()
    documents = public_meetings_import(
        actor=lead, project=project, meetings=parse_public_meetings(public_meetings.load_meetings())
    )
    imported = time.perf_counter() - started
    _, key = api_token_create(user=lead, name="bench")
    return lead, project, key, len(documents), imported


def export_once(client, url: str) -> tuple[float, int, str]:
    """Reads the stream chunk by chunk, as a client does, hashing instead of keeping it."""
    started = time.perf_counter()
    response = client.get(url)
    assert response.status_code == 200, response.status_code
    digest, size = hashlib.sha256(), 0
    for chunk in response.streaming_content:
        digest.update(chunk)
        size += len(chunk)
    return time.perf_counter() - started, size, digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    lead, project, key, documents, import_seconds = setup_project()
    from django.test import Client

    from backend.exports.selectors import export_preview
    from workers.align.pairs.options import ExportOptions

    client = Client(HTTP_AUTHORIZATION=f"Token {key}")
    base = f"/api/v1/projects/{project.pk}/exports/"
    results = {}
    try:
        for name in FORMATS:
            runs = [export_once(client, base + name) for _ in range(args.repeat)]
            tracemalloc.start()
            export_once(client, base + name)
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            results[name] = {
                "seconds_median": round(statistics.median(run[0] for run in runs), 3),
                "seconds_runs": [round(run[0], 3) for run in runs],
                "bytes": runs[0][1],
                "same_bytes_every_run": len({run[2] for run in runs}) == 1,
                "peak_python_memory_mb": round(peak / 2**20, 1),
            }
        preview = export_preview(project_id=project.pk, options=ExportOptions())
    finally:
        project.delete()
        lead.delete()
    print(
        json.dumps(
            {
                "meetings": documents,
                "database": os.environ.get("DATABASE_URL", "sqlite (temporary)").split("@")[-1],
                "import_seconds": round(import_seconds, 2),
                "pairs_with_default_filters": preview["pairs"]["total"],
                "pairs_before_filters": preview["pairs_before_filters"]["total"],
                "formats": results,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
