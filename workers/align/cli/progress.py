"""The command line's progress bars: one way for every step that may take more than a couple
of seconds (word-vector training, tuning, cross-validation, alignment, bench).

Bars go to stderr, so that --json output on stdout stays machine-readable, and show the rate
and the time left. They are shown when stderr is a terminal; `--progress` forces them on (a
log, CI) and `--quiet` off. tqdm is imported only when a bar is drawn, so that `main` can
import this module and still answer `--help` at once.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tqdm import tqdm

_forced: bool | None = None
"""True: `--progress`; False: `--quiet`; None: shown when stderr is a terminal."""


def configure(quiet: bool, forced: bool) -> None:
    """The command line's choice, set once before a command runs."""
    global _forced
    _forced = False if quiet else True if forced else None


def shown() -> bool:
    if _forced is not None:
        return _forced
    return sys.stderr.isatty()


def bar(
    iterable: Iterable[Any] | None = None, *, desc: str, unit: str, total: int | None = None
) -> tqdm:
    """A bar on stderr counting `unit`s; iterate it, or `update` it (a context manager)."""
    from tqdm import tqdm

    return tqdm(iterable, desc=desc, unit=unit, total=total, file=sys.stderr, disable=not shown())


@contextmanager
def epochs(desc: str) -> Iterator[Callable[[int, int], None]]:
    """A callback for `train_vectors(on_epoch=...)`: the bar is drawn when training starts
    (not when the vectors come from a cache) and advances at each epoch's end."""
    drawn: list[tqdm] = []

    def advance(done: int, total: int) -> None:
        if not drawn:
            drawn.append(bar(desc=desc, unit="epoch", total=total))
        drawn[0].update(done - drawn[0].n)

    try:
        yield advance
    finally:
        for started in drawn:
            started.close()
