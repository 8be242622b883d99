"""Load figures for the editor API: run against a live server (scripts/web, gunicorn)
whose database this script can also reach, e.g.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tandem .venv/bin/python bench/api_load.py \
        --host http://127.0.0.1:8000 --users 50 --duration 60

It imports the largest public_meetings meeting once, gives each simulated annotator an
account, an assignment and an API token, then runs two locust phases (bulk updates, then
editor loads), each with `--users` concurrent clients, and prints the figures as JSON.
"""

import argparse
import csv
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backend.settings")

LARGEST_MEETING = "199073d27fc61f6a76cb1f9c1d977aa6"
PROJECT_NAME = "Bench: largest public meeting"
TARGETS_MS = {"bulk update": 50, "editor load": 300}


def prepare(users: int) -> dict:
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from backend.accounts.services import api_token_create
    from backend.alignments.models import Annotation
    from backend.documents.public_meetings import import_public_meeting
    from backend.projects.models import Membership, Project, Role

    project, _ = Project.objects.get_or_create(name=PROJECT_NAME)
    annotators = []
    for index in range(users):
        user, _ = get_user_model().objects.get_or_create(username=f"bench-{index:03d}")
        Membership.objects.get_or_create(
            project=project, user=user, defaults={"role": Role.ANNOTATOR}
        )
        annotators.append(user)
    document = import_public_meeting(
        actor=None, project=project, meeting_id=LARGEST_MEETING, assignees=annotators
    )
    document.assignees.add(*annotators)
    Annotation.objects.filter(document=document).delete()
    return {
        "document_url": f"/api/v1/projects/{project.pk}/documents/{document.pk}/",
        "turns": document.turn_count,
        "tokens": [api_token_create(user=user, name="bench")[1] for user in annotators],
    }


def run_phase(tag: str, args, setup_file: Path, out_dir: Path) -> dict:
    prefix = out_dir / tag
    command = [
        sys.executable, "-m", "locust", "-f", str(ROOT / "bench" / "locustfile.py"),
        "--headless", "--only-summary", "--tags", tag,
        "-u", str(args.users), "-r", str(args.users), "-t", f"{args.duration}s",
        "--host", args.host, "--csv", str(prefix), "--stop-timeout", "10",
    ]  # fmt: skip
    env = {
        **os.environ,
        "TANDEM_BENCH_SETUP": str(setup_file),
        "TANDEM_BENCH_WAIT_MIN": str(args.wait_min),
        "TANDEM_BENCH_WAIT_MAX": str(args.wait_max),
    }
    finished = subprocess.run(command, env=env, check=False, capture_output=True, text=True)
    stats = Path(f"{prefix}_stats.csv")
    if not stats.exists():
        sys.exit(
            f"locust wrote no figures for the {tag!r} phase (exit code {finished.returncode}):\n"
            + (finished.stderr.strip() or finished.stdout.strip())[-2000:]
        )
    with stats.open() as handle:
        rows = {row["Name"]: row for row in csv.DictReader(handle)}
    name = "bulk update" if tag == "update" else "editor load"
    row = rows[name]
    return {
        "requests": int(row["Request Count"]),
        "errors": int(row["Failure Count"]),
        "requests_per_second": round(float(row["Requests/s"]), 1),
        "median_ms": float(row["50%"]),
        "p95_ms": float(row["95%"]),
        "p99_ms": float(row["99%"]),
        "max_ms": round(float(row["Max Response Time"]), 1),
        "target_p95_ms": TARGETS_MS[name],
        "meets_target": float(row["95%"]) <= TARGETS_MS[name] and int(row["Failure Count"]) == 0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="http://127.0.0.1:8000")
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--duration", type=int, default=60, help="seconds per phase")
    parser.add_argument("--wait-min", type=float, default=0.5, help="think time, seconds")
    parser.add_argument("--wait-max", type=float, default=1.5)
    args = parser.parse_args()
    if importlib.util.find_spec("locust") is None:
        sys.exit(
            "bench/api_load.py drives the load with locust, a test tool: install the test "
            "tools first (scripts/test does, or `.venv/bin/pip install -r requirements-dev.txt`)."
        )

    setup = prepare(args.users)
    with tempfile.TemporaryDirectory() as folder:
        out_dir = Path(folder)
        setup_file = out_dir / "setup.json"
        setup_file.write_text(json.dumps(setup))
        figures = {
            "users": args.users,
            "duration_s_per_phase": args.duration,
            "think_time_s": [args.wait_min, args.wait_max],
            "document": {"meeting": LARGEST_MEETING, "turns": setup["turns"]},
            "bulk_update": run_phase("update", args, setup_file, out_dir),
            "editor_load": run_phase("editor", args, setup_file, out_dir),
        }
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
