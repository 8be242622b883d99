"""Shared fixtures: the public_meetings corpus read straight from the package, so these tests
do not depend on the readers being finished."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import pytest

# The engine is importable as `workers.align` from the repository root whichever way pytest
# is launched (plain `pytest` does not put the root on sys.path).
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


@functools.cache
def _raw_meetings() -> dict:
    public_meetings = pytest.importorskip("public_meetings")
    return public_meetings.load_meetings()


@pytest.fixture(scope="session")
def raw_meetings() -> dict:
    return _raw_meetings()
