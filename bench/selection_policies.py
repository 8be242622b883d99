"""The batch-selection policies compared on public_meetings, as JSON
(`python -m bench.selection_policies --seeds 1,2,3 --batches 3,3,3 --held-out 4`).

Each (policy, seed) is one `manage.py simulate_bootstrap --select POLICY --held-out N
--start-worker` run in its own TANDEM_DATA_DIR (its own SQLite database, broker and worker),
`--parallel` of them at a time. Under one seed every policy annotates the same first batch and
is scored on the same held-out meetings (backend/simulation/selection.py), so policies are
compared seed by seed: the held-out meetings' pre-alignment accuracy once the loop's last
tuning is promoted, and the turns the annotators changed over the loop to get there. Each
policy's figures are given as the mean and the min-max over seeds, and its paired difference
from random the same way.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from statistics import mean
from typing import Any

POLICIES = ("random", "uncertainty", "diversity")
ROOT = Path(__file__).resolve().parent.parent


def run_one(policy: str, seed: int, arguments: argparse.Namespace) -> dict[str, Any]:
    data_dir = Path(arguments.data_root) / f"{policy}-{seed}"
    data_dir.mkdir(parents=True, exist_ok=True)
    report = data_dir / "report.json"
    if not report.exists():
        environment = {
            key: value
            for key, value in os.environ.items()
            if key not in ("DATABASE_URL", "CELERY_BROKER_URL")
        }
        environment["TANDEM_DATA_DIR"] = str(data_dir)
        manage = [sys.executable, str(ROOT / "manage.py")]
        with open(data_dir / "run.log", "w", encoding="utf-8") as log:
            subprocess.run([*manage, "migrate", "-v0"], env=environment, check=True, stdout=log)
            subprocess.run(
                [
                    *manage,
                    "simulate_bootstrap",
                    "--batches",
                    arguments.batches,
                    "--seed",
                    str(seed),
                    "--select",
                    policy,
                    "--held-out",
                    str(arguments.held_out),
                    "--start-worker",
                    "--json",
                    str(report),
                ],
                env=environment,
                check=True,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
    return json.loads(report.read_text(encoding="utf-8"))


def figures(report: dict[str, Any]) -> dict[str, Any]:
    iterations = report["iterations"]
    turns = sum(iteration["selection"]["turns"] for iteration in iterations)
    changed = sum(iteration["selection"]["turns_changed"] for iteration in iterations)
    return {
        "held_out_accuracy": report["held_out"]["mean_accuracy"],
        "turns_annotated": turns,
        "turns_changed": changed,
        "changed_share": 100.0 * changed / turns,
        "batches": [iteration["documents"] for iteration in iterations],
        "promoted": [iteration["tuning"].get("promoted") for iteration in iterations],
    }


def spread(values: list[float]) -> dict[str, float]:
    return {"mean": mean(values), "min": min(values), "max": max(values)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--batches", default="3,3,3")
    parser.add_argument("--held-out", type=int, default=4)
    parser.add_argument("--policies", default=",".join(POLICIES))
    parser.add_argument("--parallel", type=int, default=1)
    parser.add_argument(
        "--data-root", default=str(ROOT / "var" / "selection-bench"), help="One folder per run."
    )
    arguments = parser.parse_args()
    seeds = [int(seed) for seed in arguments.seeds.split(",")]
    policies = arguments.policies.split(",")
    runs = [(policy, seed) for seed in seeds for policy in policies]
    with ThreadPoolExecutor(max_workers=arguments.parallel) as pool:
        reports = list(pool.map(lambda run: run_one(*run, arguments), runs))
    by_run = {run: figures(report) for run, report in zip(runs, reports, strict=True)}
    summary: dict[str, Any] = {}
    for policy in policies:
        own = [by_run[(policy, seed)] for seed in seeds]
        summary[policy] = {
            "held_out_accuracy": spread([run["held_out_accuracy"] for run in own]),
            "turns_changed": spread([run["turns_changed"] for run in own]),
            "changed_share": spread([run["changed_share"] for run in own]),
        }
        if policy != "random" and "random" in policies:
            summary[policy]["minus_random"] = {
                key: spread(
                    [by_run[(policy, seed)][key] - by_run[("random", seed)][key] for seed in seeds]
                )
                for key in ("held_out_accuracy", "turns_changed", "changed_share")
            }
    print(
        json.dumps(
            {
                "batches": arguments.batches,
                "held_out": arguments.held_out,
                "seeds": seeds,
                "summary": summary,
                "runs": {f"{policy}-{seed}": by_run[(policy, seed)] for policy, seed in runs},
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
