"""Words as the scorers see them: lexical tokens only, mapped to ids shared by both sides."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

import numpy as np
import scipy.sparse as sp


def lexical_tokens(sentence: str) -> list[str]:
    """Whitespace tokens that contain a letter or digit; punctuation carries no topic. (Most
    tokens are letters only: `isalnum` answers for them without a Python loop.)"""
    return [
        token
        for token in sentence.split()
        if token.isalnum() or any(character.isalnum() for character in token)
    ]


class Vocabulary:
    """Token ids for one scoring call, so both sides' count matrices share columns."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}

    def encode(self, tokens: Iterable[str]) -> list[int]:
        return [self.ids.setdefault(token, len(self.ids)) for token in tokens]

    def __len__(self) -> int:
        return len(self.ids)


def count_matrix(encoded: Sequence[Sequence[int]], vocabulary_size: int) -> sp.csr_matrix:
    """Sentence x token counts (float64 CSR)."""
    lengths = np.fromiter((len(ids) for ids in encoded), dtype=np.int64, count=len(encoded))
    indptr = np.concatenate(([0], np.cumsum(lengths)))
    indices = np.fromiter((i for ids in encoded for i in ids), dtype=np.int64, count=indptr[-1])
    data = np.ones(len(indices), dtype=np.float64)
    matrix = sp.csr_matrix((data, indices, indptr), shape=(len(encoded), vocabulary_size))
    matrix.sum_duplicates()
    return matrix


def bigram_ids(encoded: Sequence[Sequence[int]]) -> tuple[list[list[int]], int]:
    """Each sentence's bigrams as ids of a bigram vocabulary built over all sentences given."""
    bigrams: dict[tuple[int, int], int] = {}
    result = [
        [bigrams.setdefault(pair, len(bigrams)) for pair in itertools.pairwise(ids)]
        for ids in encoded
    ]
    return result, len(bigrams)


def inverse_document_frequency(counts: sp.csr_matrix) -> np.ndarray:
    """Smoothed idf (scikit-learn's formula), with sentences as documents."""
    document_frequency = np.bincount(counts.indices, minlength=counts.shape[1])
    return np.log((1.0 + counts.shape[0]) / (1.0 + document_frequency)) + 1.0
