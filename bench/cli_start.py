"""How fast the command line answers before any work: `--help`, a subcommand's `--help` and
an argument error (`salience --window 0`), each run as a new process (`python -m
workers.align`, as a researcher types it), median of `--repeat` runs, beside the 1 s target.

    .venv/bin/python -m bench.cli_start [--repeat 7] [--json]

The figures include the interpreter's own start; `python -c pass` is measured the same way
so that what the command line adds can be read off.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_SECONDS = 1.0
CASES = {
    "help": ["-m", "workers.align", "--help"],
    "align_help": ["-m", "workers.align", "align", "--help"],
    "argument_error": [
        "-m",
        "workers.align",
        "salience",
        "--transcript",
        "tests/align/fixtures/transcript.srt",
        "--description",
        "tests/align/fixtures/report.md",
        "--window",
        "0",
    ],
    "python_alone": ["-c", "pass"],
}
EXPECTED_STATUS = {"help": 0, "align_help": 0, "argument_error": 2, "python_alone": 0}


def seconds(arguments: list[str], status: int) -> float:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, *arguments], cwd=ROOT, capture_output=True, text=True, check=False
    )
    elapsed = time.perf_counter() - started
    if done.returncode != status:
        raise SystemExit(f"{arguments}: exit status {done.returncode}, expected {status}")
    return elapsed


def measure(repeat: int) -> dict:
    figures = {}
    for name, arguments in CASES.items():
        runs = [seconds(arguments, EXPECTED_STATUS[name]) for _ in range(repeat)]
        figures[name] = {
            "median_seconds": round(statistics.median(runs), 3),
            "max_seconds": round(max(runs), 3),
            "runs": repeat,
        }
    return {
        "target_seconds": TARGET_SECONDS,
        "figures": figures,
        "within_target": all(
            figures[name]["median_seconds"] < TARGET_SECONDS for name in EXPECTED_STATUS
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.cli_start", description=__doc__)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--json", action="store_true", help="one line of JSON (default indented)")
    arguments = parser.parse_args()
    print(json.dumps(measure(arguments.repeat), indent=None if arguments.json else 2))


if __name__ == "__main__":
    main()
