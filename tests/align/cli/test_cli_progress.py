"""Progress of the command's long steps: bars on stderr with a rate and the time left, drawn
on a terminal, forced with --progress (a log, CI), never with --quiet; and the word-vector
training that reports its epochs to whoever asks."""

from __future__ import annotations

import fcntl
import json
import os
import re
import struct
import subprocess
import sys
import termios
from pathlib import Path

from tests.align.cli_refusal import refusal
from workers.align.params import AlignmentParams, save_params
from workers.align.scoring.vectors import TrainingSettings, train_vectors

ROOT = Path(__file__).resolve().parents[3]
ENGLISH = ROOT / "tests" / "align" / "fixtures" / "english"
OWN_FILES = [
    "--report",
    str(ENGLISH / "council.md"),
    "--transcript",
    str(ENGLISH / "council.srt"),
    "--language",
    "en",
]


def finished_bar(unit: str) -> re.Pattern[str]:
    """tqdm's last state of a bar: all done, the time taken and left, and the rate (per
    second, or seconds per unit when slower than one a second)."""
    return re.compile(
        rf"(\d+)/\1 \[\d\d:\d\d<\d\d:\d\d, +[\d.]+(?:{re.escape(unit)}/s|s/{re.escape(unit)})\]"
    )


def run(arguments: list[str], tmp_path: Path, stderr: int = subprocess.PIPE) -> str:
    """The command in its own process, as a researcher runs it (stderr a pipe unless given);
    what it said on stderr when piped."""
    env = {**os.environ, "TANDEM_VECTOR_CACHE": str(tmp_path / "vectors-cache")}
    done = subprocess.run(
        [sys.executable, "-m", "workers.align", *arguments],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stderr or ""


def align_arguments(tmp_path: Path, *extra: str) -> list[str]:
    return ["align", *OWN_FILES, "--out", str(tmp_path / "aligned.json"), *extra]


def test_progress_forced_shows_each_bar_with_its_rate_and_time_left(tmp_path) -> None:
    params = tmp_path / "word2vec.json"
    save_params(AlignmentParams(), params)
    assert AlignmentParams().vectors.kind == "word2vec"

    said = run(align_arguments(tmp_path, "--params", str(params), "--progress"), tmp_path)

    assert "training word vectors on these texts" in said
    assert finished_bar("epoch").search(said)
    assert f"{TrainingSettings().epochs}/{TrainingSettings().epochs} [" in said
    assert "aligning" in said
    assert finished_bar("document").search(said)


def test_the_option_may_follow_the_command_or_precede_it(tmp_path) -> None:
    said = run(["--progress", *align_arguments(tmp_path)], tmp_path)
    assert finished_bar("document").search(said)


def test_quiet_and_a_piped_stderr_draw_no_bar(tmp_path) -> None:
    for extra in (["--quiet"], []):
        said = run(align_arguments(tmp_path, *extra), tmp_path)
        assert "parameters:" in said
        assert "aligning" not in said
        assert "document/s" not in said
        assert "%|" not in said


def test_a_terminal_gets_the_bars_unless_quiet(tmp_path) -> None:
    def on_terminal(*extra: str) -> str:
        main_end, terminal_end = os.openpty()
        # a terminal of 24 rows and 100 columns (a new pseudo-terminal has 0: no room for a bar)
        fcntl.ioctl(terminal_end, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
        try:
            run(align_arguments(tmp_path, *extra), tmp_path, stderr=terminal_end)
        finally:
            os.close(terminal_end)
        said = b""
        try:
            while chunk := os.read(main_end, 65536):
                said += chunk
        except OSError:
            pass  # Linux reports the end of a pseudo-terminal whose other end closed as EIO
        os.close(main_end)
        return said.decode("utf-8", errors="replace")

    assert finished_bar("document").search(on_terminal())
    assert "document/s" not in on_terminal("--quiet")


def test_tuning_and_cross_validation_count_their_work(tmp_path) -> None:
    mapping = tmp_path / "map.csv"
    mapping.write_text("turn,segment\n1,1\n2,1\n3,2\n4,\n5,4\n", encoding="utf-8")
    gold = tmp_path / "gold.json"
    for name in ("council", "again"):
        csv = ["--csv", str(mapping), "--out", str(gold), "--name", name]
        run(["gold", "from-csv", *OWN_FILES, *csv], tmp_path)
    grid = tmp_path / "grid.json"
    grid.write_text(
        json.dumps(
            {"aligner": ["gapped"], "scoring.method": ["tfidf"], "gapped.match_offset": [0.1, 0.3]}
        ),
        encoding="utf-8",
    )

    tuned = ["tune", "--gold", str(gold), "--grid", str(grid), "--out", str(tmp_path / "t.json")]
    said = run([*tuned, "--cv", "2", "--progress", "--json"], tmp_path)

    # 2 settings on 2 documents; each fold tunes them on the other document
    assert re.search(r"tuning: 100%\|[^|]*\| 4/4 \[", said)
    assert re.search(r"tuning on 1 documents: 100%\|[^|]*\| 2/2 \[", said)
    assert re.search(r"cross-validation: 100%\|[^|]*\| 2/2 \[", said)
    assert finished_bar("setting-document").search(said)
    assert finished_bar("fold").search(said)
    assert "setting-document/s" not in run([*tuned, "--cv", "2", "--quiet"], tmp_path)


def test_quiet_and_progress_exclude_each_other(capsys) -> None:
    arguments = ["--quiet", "gold", "check", str(ENGLISH / "council.md"), "--progress"]
    status, said = refusal(capsys, arguments)
    assert status == 2
    assert "--quiet and --progress exclude each other" in said


def test_word_vector_training_tells_its_epochs_and_a_cached_text_set_none(tmp_path) -> None:
    sentences = [f"the council voted on the roof repairs of hall {n}" for n in range(40)]
    settings = TrainingSettings(epochs=4, min_count=1)
    heard: list[tuple[int, int]] = []

    def on_epoch(done: int, total: int) -> None:
        heard.append((done, total))

    train_vectors(
        sentences, settings, tmp_path, on_epoch=lambda done, total: heard.append((done, total))
    )
    assert heard == [(0, 4), (1, 4), (2, 4), (3, 4), (4, 4)]

    heard.clear()
    train_vectors(
        sentences, settings, tmp_path, on_epoch=lambda done, total: heard.append((done, total))
    )
    assert heard == []
