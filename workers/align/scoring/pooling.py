"""Sentence vectors from word vectors, and the unit rows cosines are products of."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np

Pooling = Literal["sum", "mean", "max"]


def pool_sentences(
    encoded: Sequence[Sequence[int]],
    word_vectors: np.ndarray,
    known: np.ndarray,
    pooling: Pooling,
    word_weights: np.ndarray | None = None,
) -> np.ndarray:
    """(n_sentences, dim) float32 pooled vectors; words without a vector are skipped and a
    sentence with none gets the zero vector (cosine 0 with everything).

    `word_vectors` (vocab, dim) is indexed by the ids in `encoded`; `known` says which have one.
    """
    dim = word_vectors.shape[1]
    pooled = np.zeros((len(encoded), dim), dtype=np.float32)
    for position, ids in enumerate(encoded):
        usable = [i for i in ids if known[i]]
        if not usable:
            continue
        vectors = word_vectors[usable]
        if word_weights is not None:
            vectors = vectors * word_weights[usable, None]
        if pooling == "sum":
            pooled[position] = vectors.sum(axis=0)
        elif pooling == "mean":
            pooled[position] = vectors.mean(axis=0)
        elif pooling == "max":
            pooled[position] = vectors.max(axis=0)
        else:
            raise ValueError(f"unknown pooling {pooling!r}")
    return pooled


def unit_rows(rows: np.ndarray) -> np.ndarray:
    """Rows scaled to length 1 (float32); zero rows stay zero."""
    rows = np.asarray(rows, dtype=np.float32)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return np.divide(rows, norms, out=np.zeros_like(rows), where=norms > 0)
