"""`pip install -e .` from the checkout, as docs/your-own-data.md tells researchers: the
`tandem-align` command on the PATH and `import workers.align` from any folder.

The virtual environment borrows this interpreter's installed libraries (a .pth file naming
its site-packages) and builds without isolation, so the test needs no network: it checks our
packaging (pyproject's build system, packages, data files and entry point), not pip's
downloads."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.align.topic_vectors import write_topic_vectors

CHECKOUT = Path(__file__).resolve().parents[2]
ENGLISH = Path(__file__).parent / "fixtures" / "english"

pytestmark = pytest.mark.slow


def _run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    return subprocess.run(
        command, cwd=cwd, env=environment, capture_output=True, text=True, check=False
    )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the checkout installed in editable mode."""
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = _run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], venv)
    (Path(site.stdout.strip()) / "borrowed.pth").write_text(
        sysconfig.get_path("purelib") + "\n", encoding="utf-8"
    )
    install = _run(
        [str(python), "-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index",
         "-e", str(CHECKOUT)],
        venv,
    )  # fmt: skip
    assert install.returncode == 0, install.stdout + install.stderr
    return venv


def test_the_command_answers_help_from_another_folder(installed: Path, tmp_path: Path) -> None:
    done = _run([str(installed / "bin" / "tandem-align"), "--help"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: tandem-align")
    for command in ("align", "evaluate", "tune", "summarize", "salience", "bench"):
        assert command in done.stdout


def test_the_package_imports_from_another_folder(installed: Path, tmp_path: Path) -> None:
    code = "import workers.align.api as api; print(api.__file__)"
    done = _run([str(installed / "bin" / "python"), "-c", code], tmp_path)
    assert done.returncode == 0, done.stderr
    assert Path(done.stdout.strip()) == CHECKOUT / "workers" / "align" / "api.py"


def test_the_quick_start_aligns_from_another_folder(installed: Path, tmp_path: Path) -> None:
    out = tmp_path / "council.json"
    done = _run(
        [str(installed / "bin" / "tandem-align"), "align",
         "--report", str(ENGLISH / "council.md"), "--transcript", str(ENGLISH / "council.srt"),
         "--language", "en", "--vectors", str(write_topic_vectors(tmp_path / "vectors.vec")),
         "--out", str(out)],
        tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    entries = json.loads(out.read_text(encoding="utf-8"))["ctm"]
    assert [entry["aligned"] for entry in entries[:2]] == ["0_0_0", "0_1_0"]
    module = _run([str(installed / "bin" / "python"), "-m", "workers.align", "--help"], tmp_path)
    assert module.returncode == 0, module.stderr
    assert module.stdout.startswith("usage: python -m workers.align")
