"""Editor speed in headless Chromium on the largest public_meetings meeting and on a day-long
document (all 22 meetings joined: 7,758 turns, 2,359 segments), as JSON per document: time to a
usable editor (median of 5 loads), what is in the DOM, scrolling frame times, key-to-paint
times and the server's time per save (the first, which creates the annotator's copy,
and the later ones). It runs the browser test that opens, scrolls and edits
those documents (tests/browser/test_large_document.py), which measures and writes the figures,
`--repeat` times.

    .venv/bin/python bench/editor_speed.py [--repeat 3]

Needs what scripts/test needs for browser tests: Debian's chromium and a built frontend
(`scripts/test` or `cd frontend && npm run build`, then `manage.py collectstatic`).
"""

import argparse
import base64
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEST = "tests/browser/test_large_document.py"


def run_once(workdir: Path, index: int) -> dict[str, dict]:
    out = workdir / f"figures-{index}"
    out.mkdir()
    env = {
        **os.environ,
        "TANDEM_EDITOR_BENCH_DIR": str(out),
        "TANDEM_DATA_DIR": str(workdir / "data"),
        "DJANGO_SECRET_KEY": os.environ.get(
            "DJANGO_SECRET_KEY", "bench-" + base64.b64encode(os.urandom(18)).decode()
        ),
        "DJANGO_DEBUG": "0",
        "DJANGO_SECURE_COOKIES": "0",
        "DJANGO_ALLOWED_HOSTS": "localhost,127.0.0.1,testserver",
        "DJANGO_ALLOW_ASYNC_UNSAFE": "true",
    }
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", TEST],
        cwd=ROOT,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return {path.stem: json.loads(path.read_text()) for path in sorted(out.glob("*.json"))}


def summary(runs: list[dict]) -> dict:
    return {
        "turns": runs[0]["turns"],
        "segments": runs[0]["segments"],
        "usable_editor_seconds_median": statistics.median(
            run["usable_editor_seconds"]["median"] for run in runs
        ),
        "scroll_frame_ms_median": statistics.median(
            run["scroll_frame_ms"]["median"] for run in runs
        ),
        "key_to_paint_edit_ms_median": statistics.median(
            run["key_to_paint_ms"]["edit_median"] for run in runs
        ),
        "key_to_paint_next_turn_ms_median": statistics.median(
            run["key_to_paint_ms"]["next_turn_median"] for run in runs
        ),
        "first_save_server_ms_median": statistics.median(
            run["save_server_ms"]["first"] for run in runs
        ),
        "later_saves_server_ms_median": statistics.median(
            run["save_server_ms"]["later_median"] for run in runs
        ),
        "runs": runs,
    }


def main() -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tandem-editor-bench-") as folder:
        runs = [run_once(Path(folder), index) for index in range(args.repeat)]
    return {document: summary([run[document] for run in runs]) for document in runs[0]}


if __name__ == "__main__":
    print(json.dumps(main(), indent=2))
