"""Which documents the next bootstrap iteration should annotate, and why each.

Three policies, each answering the chosen documents in order with a reason per document:

- `random`: a seeded draw, what a lead picking without information does.
- `uncertainty`: where the engine expects to be wrong most. A pre-alignment's calibrated
  confidence is the probability that a turn's label is right, so the sum of (1 - confidence)
  over a document's turns is the number of wrong turns the annotator is expected to fix
  (`expected_errors`); `mean_confidence` ranks by the lowest mean instead, which ignores the
  document's length.
- `diversity`: documents unlike the gold so far, so tuning sees kinds of meeting it has not
  seen. Documents become the sum of their words' lexical vectors (the aligner's own first-
  contact vectors, `workers.align.scoring.lexical`: a word's stem direction weighted by its
  rarity), centred on the mean of gold and candidates together (what every meeting shares,
  procedure and greetings, would otherwise make them all alike), and chosen farthest-first:
  each next document is the one whose highest cosine with the gold and the documents already
  chosen is lowest.

Nothing here knows Django: callers pass confidences and texts, and get positions back.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from workers.align.scoring.lexical import DIMENSIONS, lexical_vectors
from workers.align.scoring.tokens import lexical_tokens


class SelectionPolicy(StrEnum):
    RANDOM = "random"
    UNCERTAINTY = "uncertainty"
    DIVERSITY = "diversity"


class UncertaintyMeasure(StrEnum):
    EXPECTED_ERRORS = "expected_errors"
    MEAN_CONFIDENCE = "mean_confidence"


@dataclass(frozen=True)
class Choice:
    """A chosen candidate: its position in the caller's list, the number it was chosen by and
    a sentence that says what the number means."""

    position: int
    score: float
    reason: str


def random_choice(candidates: int, size: int, seed: int) -> list[Choice]:
    """`size` positions of `candidates` drawn with `seed` (the whole list when it is shorter)."""
    drawn = random.Random(seed).sample(range(candidates), min(size, candidates))
    return [
        Choice(position=position, score=0.0, reason=f"drawn at random (seed {seed})")
        for position in drawn
    ]


def uncertainty_choice(
    confidences: Sequence[np.ndarray],
    size: int,
    measure: UncertaintyMeasure = UncertaintyMeasure.EXPECTED_ERRORS,
) -> list[Choice]:
    """The `size` candidates the engine is least sure of, most uncertain first; ties keep the
    callers' order. Candidates without turns cannot be ranked and are never chosen."""
    scored = []
    for position, values in enumerate(confidences):
        values = np.asarray(values, dtype=np.float64)
        if values.size == 0:
            continue
        expected = float(np.sum(1.0 - values))
        mean_confidence = float(np.mean(values))
        if measure == UncertaintyMeasure.EXPECTED_ERRORS:
            key, score = -expected, expected
        else:
            key, score = mean_confidence, mean_confidence
        scored.append((key, position, score, expected, mean_confidence, values.size))
    scored.sort(key=lambda item: (item[0], item[1]))
    return [
        Choice(
            position=position,
            score=score,
            reason=f"expected {expected:.0f} wrong turns of {turns} "
            f"(mean confidence {mean_confidence:.2f})",
        )
        for _, position, score, expected, mean_confidence, turns in scored[:size]
    ]


def document_vector(sentences: Sequence[str], language: str | None) -> np.ndarray:
    """The sum of the document's words' lexical vectors, once per occurrence (so a word counts
    by how often and how rare it is: tf-idf in dense form), as a unit vector."""
    tokens = [token for sentence in sentences for token in lexical_tokens(sentence)]
    if not tokens:
        return np.zeros(DIMENSIONS)
    vectors = lexical_vectors(tokens, language)
    words, counts = np.unique(np.asarray(tokens), return_counts=True)
    total = counts.astype(np.float64) @ vectors[list(words)].astype(np.float64)
    norm = np.linalg.norm(total)
    return total / norm if norm > 0 else total


def diversity_choice(candidates: np.ndarray, gold: np.ndarray, size: int) -> list[Choice]:
    """Farthest-first over mean-centred unit vectors: each next candidate is the one least
    similar to its most similar document among the gold and those chosen so far. With no gold,
    the first is the most typical candidate (highest mean cosine with the others), so that
    diversity starts from the centre of the corpus rather than from an outlier."""
    candidates = np.asarray(candidates, dtype=np.float64)
    gold = np.asarray(gold, dtype=np.float64).reshape(-1, candidates.shape[1])
    if len(candidates) == 0 or size < 1:
        return []
    centre = np.vstack([candidates, gold]).mean(axis=0)
    unit_candidates = _unit_rows(candidates - centre)
    unit_gold = _unit_rows(gold - centre)
    cosines = unit_candidates @ unit_candidates.T
    choices = []
    if len(unit_gold):
        nearest = (unit_candidates @ unit_gold.T).max(axis=1)
    else:
        typical = (cosines.sum(axis=1) - np.diag(cosines)) / max(len(candidates) - 1, 1)
        first = int(np.argmax(typical))
        choices.append(
            Choice(
                position=first,
                score=float(typical[first]),
                reason=f"no gold yet; the most typical candidate: mean cosine "
                f"{typical[first]:.2f} with the others",
            )
        )
        nearest = cosines[first].copy()
    available = np.ones(len(candidates), dtype=bool)
    for choice in choices:
        available[choice.position] = False
    while len(choices) < min(size, len(candidates)):
        ranked = np.where(available, nearest, np.inf)
        chosen = int(np.argmin(ranked))
        compared = " and ".join(
            (["the gold"] if len(unit_gold) else []) + (["this batch"] if choices else [])
        )
        choices.append(
            Choice(
                position=chosen,
                score=float(nearest[chosen]),
                reason=f"least similar to {compared} so far: cosine {nearest[chosen]:.2f}",
            )
        )
        available[chosen] = False
        nearest = np.maximum(nearest, cosines[chosen])
    return choices


def _unit_rows(rows: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return np.divide(rows, norms, out=np.zeros_like(rows), where=norms > 0)
