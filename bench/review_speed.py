"""How long the review's plans and estimates take on a batch, as JSON: `auto`'s threshold
counting the shown turns only and counting the runs annotators follow
(`workers.align.annotation.error_runs`), and the posterior of every turn given a review.

    .venv/bin/python -m bench.review_speed [--repeats 5]

A batch is six documents of synthetic confidences (a Beta(8, 1.5) draw, rounded to three
places as calibrated maps give few distinct values), of 700 turns (a council meeting) and of
20,000 (a day-long recording): the iteration page and the editor's review mode ask for `auto`'s
threshold over the whole batch on every read. Medians of `repeats` runs, after one that
compiles the kernels.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable

import numpy as np

from bench.machine import with_machine_load
from workers.align.annotation.error_runs import doubts_given_read
from workers.align.annotation.review import (
    DEFAULT_RESIDUAL_ERROR_TARGET,
    threshold_for_residual_error,
)

DOCUMENTS = 6
TURNS = (700, 20_000)
RUN_CORRELATION = 0.4


def median_seconds(run: Callable[[], object], repeats: int) -> float:
    run()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return round(statistics.median(times), 4)


def batch_figures(
    batch: list[np.ndarray], reviews: list[tuple[np.ndarray, np.ndarray]], repeats: int
) -> dict[str, float]:
    target = DEFAULT_RESIDUAL_ERROR_TARGET
    correlations = [RUN_CORRELATION] * len(batch)
    return {
        "auto_shown_only_seconds": median_seconds(
            lambda: threshold_for_residual_error(batch, target), repeats
        ),
        "auto_following_changes_seconds": median_seconds(
            lambda: threshold_for_residual_error(batch, target, correlations), repeats
        ),
        "posterior_seconds": median_seconds(
            lambda: [
                doubts_given_read(c, read, kept, RUN_CORRELATION)
                for c, (read, kept) in zip(batch, reviews, strict=True)
            ],
            repeats,
        ),
    }


def figures(repeats: int) -> dict[str, object]:
    rng = np.random.default_rng(0)
    report: dict[str, object] = {}
    for n_turns in TURNS:
        batch = [np.round(rng.beta(8, 1.5, n_turns), 3) for _ in range(DOCUMENTS)]
        reviews = [(rng.random(n_turns) < 0.3, rng.random(n_turns) < 0.8) for _ in batch]
        report[f"{DOCUMENTS}_documents_of_{n_turns}_turns"] = batch_figures(batch, reviews, repeats)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    repeats = parser.parse_args().repeats
    report, machine = with_machine_load(lambda: figures(repeats))
    print(json.dumps({**report, "machine": machine}, indent=2))


if __name__ == "__main__":
    main()
