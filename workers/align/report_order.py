"""The report-order rule: the aligned turns of a document follow the report, so that reading
the transcript from the start, the segments of its aligned turns never go back. Unaligned
turns (UNALIGNED) are skipped; several turns may share a segment.

This is the rule's one definition in Python: the server refuses a save whose labels break it
(`backend/alignments/services/annotations.py`, `check_order`), and the learned decision keeps
a correction only if the labels still keep it (`learned.in_report_order`). The browser's copy
(`firstOrderBreak` and `keepsOrder` in `frontend/src/editor/state.ts`) applies the same rule to
the whole document; both pass the cases in tests/fixtures/report_order_cases.json.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from workers.align.document_model import UNALIGNED


@dataclass(frozen=True)
class OrderBreak:
    """Where a document first goes back in the report: `turn`, assigned to `segment`, comes
    after `earlier_turn` (the aligned turn before it), whose `earlier_segment` is later."""

    turn: int
    segment: int
    earlier_turn: int
    earlier_segment: int


def first_order_break(labels: Sequence[int] | np.ndarray) -> OrderBreak | None:
    """The first place where an aligned turn's segment comes before that of the aligned turn
    before it, or None when the whole document keeps the report's order."""
    values = np.asarray(labels, dtype=np.int64)
    aligned = np.flatnonzero(values != UNALIGNED)
    backwards = np.flatnonzero(np.diff(values[aligned]) < 0)
    if backwards.size == 0:
        return None
    earlier, turn = aligned[backwards[0]], aligned[backwards[0] + 1]
    return OrderBreak(int(turn), int(values[turn]), int(earlier), int(values[earlier]))


def keeps_report_order(labels: Sequence[int] | np.ndarray) -> bool:
    """Whether the whole document keeps the report's order."""
    return first_order_break(labels) is None
