"""Shared fixtures: the public_meetings corpus read straight from the package, so these tests
do not depend on the readers being finished."""

from __future__ import annotations

import functools

import pytest


@functools.cache
def _raw_meetings() -> dict:
    public_meetings = pytest.importorskip("public_meetings")
    return public_meetings.load_meetings()


@pytest.fixture(scope="session")
def raw_meetings() -> dict:
    return _raw_meetings()
