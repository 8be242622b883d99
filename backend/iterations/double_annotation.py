"""Which documents of a batch two annotators correct, and who the second one is.

Pure, so the draw is reproducible from its recorded seed and testable without a database.
"""

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from backend.core.errors import InvalidInput


@dataclass(frozen=True)
class DoubleAnnotation:
    """What the lead asks for: a `share` of the batch drawn with `seed` (chosen and recorded
    when not given), or the `documents` named; second annotators come from `annotators` (the
    project's annotators when not given)."""

    share: float | None = None
    documents: tuple[int, ...] | None = None
    seed: int | None = None
    annotators: tuple[int, ...] | None = None


def draw_documents(document_ids: Sequence[int], share: float, seed: int) -> list[int]:
    """`share` of the batch (rounded, at least one document when the share is above 0), drawn
    with `random.Random(seed)` from the ids in ascending order: the same seed on the same batch
    draws the same documents, whatever order the batch was sent in."""
    if not 0 <= share <= 1:
        raise InvalidInput("The share to double-annotate is between 0 and 1.", field="share")
    population = sorted(set(document_ids))
    count = min(len(population), max(1 if share > 0 else 0, round(share * len(population))))
    return sorted(random.Random(seed).sample(population, count))


def add_second_annotators(
    assignees: Mapping[int, Sequence[int]], drawn: Sequence[int], pool: Sequence[int]
) -> dict[int, list[int]]:
    """Each drawn document gets annotators from `pool` until it has two: the one with the
    fewest documents of the batch so far first (ties: pool order), never one it already has.
    Returns the new assignee lists of every document of `assignees`."""
    result = {document: list(users) for document, users in assignees.items()}
    load = Counter(user for users in result.values() for user in users)
    pool = list(dict.fromkeys(pool))
    for document in drawn:
        users = result[document]
        while len(users) < 2:
            candidates = [user for user in pool if user not in users]
            if not candidates:
                raise InvalidInput(
                    f"Document {document} cannot have two annotators: the pool of annotators "
                    f"{pool} has no one else to give it.",
                    field="double_annotation",
                )
            chosen = min(candidates, key=lambda user: (load[user], pool.index(user)))
            users.append(chosen)
            load[chosen] += 1
    return result
