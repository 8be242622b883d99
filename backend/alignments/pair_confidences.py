"""Each pre-alignment's automatic pairs' confidences, stored with it
(`PreAlignment.pair_confidences`): the corpus dashboard counts the trusted pairs of thousands
of documents from these small arrays instead of every turn's label and confidence."""

from collections.abc import Sequence

import numpy as np

from workers.align.pairs.shape import automatic_pair_confidences

STORED = np.dtype("<f8")


def pair_confidences_to_store(labels: Sequence[int], confidences: Sequence[float]) -> bytes | None:
    """None when the pre-alignment has no confidences (its pairs are not automatic ones)."""
    if not confidences:
        return None
    return automatic_pair_confidences(labels, confidences).astype(STORED).tobytes()


def stored_pair_confidences(stored: bytes | memoryview) -> np.ndarray:
    return np.frombuffer(stored, dtype=STORED)
