"""Load figures for the editor API: run against a live server (scripts/web, gunicorn)
whose database this script can also reach, e.g.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tandem .venv/bin/python bench/api_load.py \
        --host http://127.0.0.1:8000 --users 50 --duration 60

It imports the largest public_meetings meeting once, gives each simulated annotator an
account, an assignment and an API token, then runs two locust phases (bulk updates, then
editor loads), each with `--users` concurrent clients, and prints the figures as JSON.
"""

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backend.settings")

from bench.locust_run import (  # noqa: E402
    bench_token,
    latency,
    requests_after,
    require_locust,
    run_locust,
)
from bench.machine import with_machine_load  # noqa: E402

LARGEST_MEETING = "199073d27fc61f6a76cb1f9c1d977aa6"
PROJECT_NAME = "Bench: largest public meeting"
TARGETS_MS = {"bulk update": {"p95_ms": 50, "p99_ms": 150}, "editor load": {"p95_ms": 300}}


def prepare(users: int) -> dict:
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from backend.alignments.models import Annotation
    from backend.curation.public_meetings import import_public_meeting
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
        "tokens": [bench_token(user) for user in annotators],
    }


def run_phase(tag: str, args, setup: dict) -> dict:
    name = "bulk update" if tag == "update" else "editor load"
    with tempfile.TemporaryDirectory() as folder:
        request_log = Path(folder) / "requests.tsv"
        rows, machine = with_machine_load(
            lambda: run_locust(
                user_class="Annotator",
                setup=setup,
                host=args.host,
                users=args.users,
                spawn_rate=args.spawn_rate or args.users,
                duration=args.duration,
                think_time=(args.wait_min, args.wait_max),
                tag=tag,
                request_log=request_log,
            )
        )
        steady = requests_after(request_log, name, args.warm_up)
    row = rows[name]
    figures = latency(row)
    return {
        **figures,
        "requests_per_second": round(float(row["Requests/s"]), 1),
        "target_ms": TARGETS_MS[name],
        "meets_target": meets(figures, name),
        "after_warm_up": {**steady, "meets_target": meets(steady, name)},
        "machine": machine,
    }


def meets(figures: dict, name: str) -> bool:
    limits = TARGETS_MS[name].items()
    return figures["errors"] == 0 and all(figures[key] <= limit for key, limit in limits)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="http://127.0.0.1:8000")
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--duration", type=int, default=60, help="seconds per phase")
    parser.add_argument("--wait-min", type=float, default=0.5, help="think time, seconds")
    parser.add_argument("--wait-max", type=float, default=1.5)
    parser.add_argument(
        "--spawn-rate",
        type=float,
        help="clients started per second (all at once, --users per second, by default)",
    )
    parser.add_argument(
        "--warm-up",
        type=float,
        default=10,
        help="seconds from the first request that `after_warm_up` leaves out (default 10)",
    )
    args = parser.parse_args()
    require_locust("bench/api_load.py")

    setup = prepare(args.users)
    figures = {
        "users": args.users,
        "spawn_rate": args.spawn_rate or args.users,
        "duration_s_per_phase": args.duration,
        "warm_up_s": args.warm_up,
        "think_time_s": [args.wait_min, args.wait_max],
        "document": {"meeting": LARGEST_MEETING, "turns": setup["turns"]},
        "bulk_update": run_phase("update", args, setup),
        "editor_load": run_phase("editor", args, setup),
    }
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
