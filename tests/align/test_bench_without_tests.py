"""The bench ships with the engine: it runs from a copy of workers/ alone, with no tests/ or
bench/ beside it, as it would wherever the engine is installed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run_in(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, env=environment, capture_output=True, text=True
    )


def test_the_bench_times_the_reference_definitions_without_tests(tmp_path):
    shutil.copytree(
        ROOT / "workers", tmp_path / "workers", ignore=shutil.ignore_patterns("__pycache__")
    )
    assert not (tmp_path / "tests").exists()

    usage = _run_in(tmp_path, "-m", "workers.align", "bench", "--help")
    assert usage.returncode == 0, usage.stderr
    assert "--naive-size" in usage.stdout

    naive = _run_in(
        tmp_path,
        "-c",
        "import json, workers.align.performance as performance;"
        "print(performance.__file__);"
        "print(json.dumps(performance.naive_ns_per_pair(6)))",
    )
    assert naive.returncode == 0, naive.stderr
    location, figures = naive.stdout.splitlines()
    assert Path(location).is_relative_to(tmp_path)
    assert set(json.loads(figures)) == {"dp", "gapped", "turns", "hmm"}
