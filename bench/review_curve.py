"""Confidence-guided review on public_meetings over seeds, as JSON: turns reviewed against wrong
labels left in the gold, and how far the estimated residual error is from the measured one.

    TANDEM_DATA_DIR=var/sim DJANGO_SECRET_KEY=bench .venv/bin/python -m bench.review_curve \\
        --runs var/sim/review [--seeds 1,2,3] [--batches 4,6,6,6] [--policies auto,none]

Each (policy, seed) is one `manage.py simulate_bootstrap --review-threshold POLICY` run on a
real worker (`--start-worker`; `none` is the default loop, every turn read), its report kept as
RUNS/POLICY-seedS.json: a report already there is read, not run again, so an interrupted sweep
resumes. The database and broker are the environment's (migrate it first). The last iteration
is closed without tuning, which nothing would use.

The figures: per policy and iteration, the median and range over seeds of what the loop
measured (`loop`); and per policy's runs, for each threshold of the curve every iteration
reports (CURVE_THRESHOLDS and `auto`'s), what review under it gives on that iteration's
pre-alignments (`curve`): the threshold only decides which turns are shown, so one run's
pre-alignments give every point, but the pre-alignments themselves come from a loop whose
earlier gold was made under the run's own policy.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LOOP_FIGURES = (
    "review_threshold",
    "reviewed_share",
    "changed_share",
    "residual_error",
    "estimated_residual_error",
    "pre_alignment_accuracy",
)
CURVE_FIGURES = ("reviewed_share", "changed_share", "residual_error", "estimated_residual_error")


def run(runs: Path, policy: str, seed: int, batches: str) -> dict[str, Any]:
    report = runs / f"{policy}-seed{seed}.json"
    if not report.exists():
        command = [
            sys.executable, "manage.py", "simulate_bootstrap", "--batches", batches,
            "--seed", str(seed), "--start-worker", "--no-final-tuning", "--json", str(report),
        ]  # fmt: skip
        if policy != "none":
            command += ["--review-threshold", policy]
        with open(runs / f"{policy}-seed{seed}.log", "w") as log:
            subprocess.run(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, check=True)
    return json.loads(report.read_text())


def spread(values: list[float | None]) -> dict[str, float | None]:
    defined = [value for value in values if value is not None]
    if not defined:
        return {"median": None, "min": None, "max": None}
    return {
        "median": round(statistics.median(defined), 4),
        "min": round(min(defined), 4),
        "max": round(max(defined), 4),
    }


def curve_label(point: dict[str, Any]) -> str:
    return "auto" if point["auto"] else f"{point['review_threshold']:g}"


def loop_figures(reports: list[dict[str, Any]]) -> list[dict[str, Any]]:
    iterations = zip(*(report["iterations"] for report in reports), strict=True)
    return [
        {
            "iteration": rows[0]["index"],
            **{name: spread([row[name] for row in rows]) for name in LOOP_FIGURES},
            "estimate_off_by": spread(
                [abs(row["estimated_residual_error"] - row["residual_error"]) for row in rows]
            ),
        }
        for rows in iterations
    ]


def curve_figures(reports: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per iteration and threshold, the spread over seeds (a curve point whose threshold
    `auto` also gives appears once, as `auto`)."""
    iterations = zip(*(report["iterations"] for report in reports), strict=True)
    result = []
    for rows in iterations:
        points: dict[str, list[dict[str, Any]]] = {}
        for row in rows:
            for point in row["review_curve"]:
                points.setdefault(curve_label(point), []).append(point)
        result.append(
            {
                "iteration": rows[0]["index"],
                "thresholds": {
                    label: {
                        **{name: spread([p[name] for p in found]) for name in CURVE_FIGURES},
                        "threshold": spread([p["review_threshold"] for p in found]),
                        "estimate_off_by": spread(
                            [
                                abs(p["estimated_residual_error"] - p["residual_error"])
                                for p in found
                            ]
                        ),
                        "seeds": len(found),
                    }
                    for label, found in sorted(points.items())
                },
            }
        )
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=Path, required=True, help="Folder of the runs' reports.")
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--batches", default="4,6,6,6")
    parser.add_argument("--policies", default="auto,none", help="auto, none, or probabilities.")
    options = parser.parse_args()
    options.runs.mkdir(parents=True, exist_ok=True)
    seeds = [int(seed) for seed in options.seeds.split(",")]
    figures: dict[str, Any] = {"seeds": seeds, "batches": options.batches, "policies": {}}
    for policy in options.policies.split(","):
        reports = [run(options.runs, policy, seed, options.batches) for seed in seeds]
        figures["policies"][policy] = {
            "loop": loop_figures(reports),
            "curve": curve_figures(reports),
        }
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
