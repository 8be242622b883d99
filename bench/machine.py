"""The machine's load around a timed run, printed beside the figures: on a shared machine a
latency says as much about the other work on it as about the code (docs/api-load.md)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def load_average() -> list[float]:
    """The 1, 5 and 15-minute load averages, rounded."""
    return [round(value, 2) for value in os.getloadavg()]


def with_machine_load(run: Callable[[], T]) -> tuple[T, dict]:
    """`run`'s result and the machine's load just before and just after it."""
    before = load_average()
    result = run()
    return result, {
        "cpu_count": os.cpu_count(),
        "load_average_before": before,
        "load_average_after": load_average(),
    }
