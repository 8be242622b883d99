"""The command line answers `--help` and argument errors without importing the engine's heavy
libraries (bench/cli_start.py times it), and the names it writes out to stay light are the
engine's own."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from workers.align.cli import main as command_line
from workers.align.own_files import PAIR_FORMATS
from workers.align.pairs.shape import FILTERS
from workers.align.params import ALIGNERS
from workers.align.podcasts.salience import SalienceConfig
from workers.align.podcasts.time_windows import WindowConfig
from workers.align.readers import PAPER_EXTENSIONS
from workers.align.talks.paper_states import DEFAULT_EXCLUDED
from workers.align.tuning.tune import GRIDS, OBJECTIVES

ROOT = Path(__file__).resolve().parents[3]
HEAVY = ("numpy", "numba", "scipy", "gensim", "public_meetings", "docx", "lxml", "tqdm")
FIXTURES = "tests/align/fixtures"

PROBE = """
import contextlib, io, json, sys
from workers.align.cli.main import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    try:
        main(sys.argv[1:])
    except SystemExit as exit:
        status = exit.code
print(json.dumps({"status": status, "modules": sorted(sys.modules)}))
"""


@pytest.mark.parametrize(
    ("arguments", "status"),
    [
        (["--help"], 0),
        (["align", "--help"], 0),
        (["tune", "--help"], 0),
        (["evaluate", "--cv", "1"], 2),
        (["align", "--out", "x", "--report", "nothere.md"], 2),
        (
            [
                "salience",
                "--transcript",
                f"{FIXTURES}/transcript.srt",
                "--description",
                f"{FIXTURES}/report.md",
                "--window",
                "0",
            ],
            2,
        ),
        (["bench", "--naive-size", "many"], 2),
    ],
)
def test_help_and_argument_errors_import_no_heavy_library(arguments, status) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    probed = json.loads(done.stdout)
    assert probed["status"] == status
    assert [name for name in probed["modules"] if name.partition(".")[0] in HEAVY] == []


def test_the_light_names_are_the_engines() -> None:
    assert tuple(ALIGNERS) == command_line.ALIGNER_NAMES
    assert command_line.OBJECTIVE_NAMES == OBJECTIVES
    assert tuple(GRIDS) == command_line.GRID_NAMES
    assert command_line.PAIR_FORMATS == PAIR_FORMATS
    assert command_line.PAIR_FILTERS == FILTERS
    assert command_line.EXCLUDED_SECTIONS == DEFAULT_EXCLUDED
    assert command_line.PAPER_EXTENSIONS == PAPER_EXTENSIONS
    assert WindowConfig().seconds == command_line.WINDOW_SECONDS
    assert SalienceConfig().tau == command_line.SALIENCE_TAU
