"""A simulated annotator: what it would enter in the editor to turn a pre-alignment into the
corpus's final alignment, and how long that would take it."""

import random
from collections.abc import Sequence

from backend.alignments.services.annotations import AssignmentOperation
from workers.align.document_model import UNALIGNED

SECONDS_PER_TURN_READ = 2
SECONDS_PER_TURN_CHANGED = 10
"""Simulated effort, so the effort dashboard has figures: reading every turn, fixing some."""


def seconds_spent(
    current: Sequence[int], target: Sequence[int], turns_read: int | None = None
) -> int:
    """Reading `turns_read` turns (every turn by default; in review mode the ones shown) and
    changing those that differ."""
    changed = sum(1 for before, after in zip(current, target, strict=True) if before != after)
    read = len(target) if turns_read is None else turns_read
    return SECONDS_PER_TURN_READ * read + SECONDS_PER_TURN_CHANGED * changed


def reachable_gold(reference: Sequence[int]) -> list[int]:
    """The final alignment as an annotator can enter it: the editor keeps aligned turns in
    the report's order, so where the corpus's own labels go backwards (4 of 22 meetings),
    the largest ordered subset of aligned turns keeps its labels and the rest is unaligned."""
    positions = [turn for turn, label in enumerate(reference) if label != UNALIGNED]
    kept = set(_longest_non_decreasing(positions, reference))
    return [label if turn in kept else UNALIGNED for turn, label in enumerate(reference)]


def overlooking_correction(
    shown: Sequence[int], target: Sequence[int], overlook: float, rng: random.Random
) -> list[int]:
    """What an annotator who overlooks some mistakes submits: each turn the pre-alignment
    `shown` got wrong keeps its pre-aligned label with probability `overlook` (drawn from
    `rng`, so two annotators with their own generators err independently), and otherwise
    moves to `target`; then projected onto what the editor accepts, as `reachable_gold`."""
    if not 0.0 <= overlook <= 1.0:
        raise ValueError(f"overlook must be a probability, got {overlook}")
    labels = [
        before if before != after and rng.random() < overlook else after
        for before, after in zip(shown, target, strict=True)
    ]
    return reachable_gold(labels)


def _longest_non_decreasing(positions: list[int], labels: Sequence[int]) -> list[int]:
    tails: list[int] = []
    tail_positions: list[int] = []
    previous: dict[int, int | None] = {}
    for position in positions:
        label = labels[position]
        low, high = 0, len(tails)
        while low < high:
            middle = (low + high) // 2
            if tails[middle] <= label:
                low = middle + 1
            else:
                high = middle
        previous[position] = tail_positions[low - 1] if low else None
        if low == len(tails):
            tails.append(label)
            tail_positions.append(position)
        else:
            tails[low] = label
            tail_positions[low] = position
    chain, cursor = [], tail_positions[-1] if tail_positions else None
    while cursor is not None:
        chain.append(cursor)
        cursor = previous[cursor]
    return chain[::-1]


def correction_operations(
    current: Sequence[int], target: Sequence[int]
) -> list[AssignmentOperation]:
    """Runs of consecutive turns that need the same new label, as the editor sends them."""
    operations: list[AssignmentOperation] = []
    turn = 0
    while turn < len(target):
        if current[turn] == target[turn]:
            turn += 1
            continue
        last = turn
        while (
            last + 1 < len(target)
            and current[last + 1] != target[last + 1]
            and (target[last + 1] == target[turn])
        ):
            last += 1
        label = target[turn]
        operations.append(
            AssignmentOperation("unalign", turn, last)
            if label == UNALIGNED
            else AssignmentOperation("assign", turn, last, label)
        )
        turn = last + 1
    return operations
