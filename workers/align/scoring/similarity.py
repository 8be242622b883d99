"""Sentence-pair similarity matrices (transcript sentences x report sentences, float32)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np
import scipy.sparse as sp
from gensim.models import KeyedVectors

from workers.align.scoring.lsa import lsa_vectors, tfidf
from workers.align.scoring.normalise import Normalisation
from workers.align.scoring.pooling import Pooling, cosine_matrix, pool_sentences, unit_rows
from workers.align.scoring.rouge import rouge_l, rouge_n
from workers.align.scoring.tokens import (
    Vocabulary,
    bigram_ids,
    count_matrix,
    inverse_document_frequency,
    lexical_tokens,
)
from workers.align.scoring.vectors import lookup_table
from workers.align.scoring.windows import (
    Aggregation,
    Reduction,
    aggregate,
    reduce_to_sentences,
    window_starts,
)

Method = Literal["embedding", "tfidf", "rouge"]
RougeVariant = Literal["1", "2", "l", "12"]


@dataclass(frozen=True)
class ScoringParams:
    """How sentence pairs are scored; everything that changes the similarity matrix.

    `centre` (vector methods only) scores unit sentence vectors after removing the meeting's
    mean window vector. Summed word vectors share a large common direction, so raw cosines
    sit around 0.7 for unrelated sentences and that level drifts between meetings; centred,
    unrelated text scores about 0 everywhere, which is what lets one gap threshold transfer
    from the meetings it was tuned on to the others.
    """

    method: Method = "embedding"
    window_size: int = 2
    window_overlap: int = 1
    aggregation: Aggregation = "sum"
    reduction: Reduction = "product"
    pooling: Pooling = "sum"
    idf_weighting: bool = False
    lsa_components: int = 100
    rouge_variant: RougeVariant = "12"
    normalisation: Normalisation = "none"
    centre: bool = False

    def without_normalisation(self) -> ScoringParams:
        """The settings the raw matrix depends on (normalisation is applied afterwards)."""
        return replace(self, normalisation="none")


def similarity_matrix(
    transcript_sentences: Sequence[str],
    report_sentences: Sequence[str],
    params: ScoringParams,
    vectors: KeyedVectors | None = None,
) -> np.ndarray:
    """S of equation 3, before normalisation; `vectors` is required for the embedding method.

    Normalisation is left to the caller because abstention reads the raw level: z-scores find
    the best match even in a transcript that matches nothing of the report.
    """
    vocabulary = Vocabulary()
    transcript = [vocabulary.encode(lexical_tokens(s)) for s in transcript_sentences]
    report = [vocabulary.encode(lexical_tokens(s)) for s in report_sentences]
    n_rows, n_cols = len(transcript), len(report)
    if n_rows == 0 or n_cols == 0:
        return np.zeros((n_rows, n_cols), dtype=np.float32)
    size, overlap = params.window_size, params.window_overlap
    if params.method == "rouge":
        if params.centre:
            raise ValueError("centre applies to vector methods (embedding, tfidf), not rouge")
        window_scores = _rouge_windows(transcript, report, vocabulary, params)
    else:
        counts = count_matrix(transcript + report, len(vocabulary))
        if params.method == "embedding":
            if vectors is None:
                raise ValueError("the embedding method needs word vectors")
            table, known = lookup_table(vectors, vocabulary.ids)
            weights = inverse_document_frequency(counts) if params.idf_weighting else None
            features = pool_sentences(transcript + report, table, known, params.pooling, weights)
        elif params.method == "tfidf":
            weighted = tfidf(counts, inverse_document_frequency(counts))
            features = lsa_vectors(weighted, params.lsa_components).astype(np.float32)
        else:
            raise ValueError(f"unknown scoring method {params.method!r}")
        if params.centre:
            features = unit_rows(features)
        transcript_windows = aggregate(features[:n_rows], size, overlap, params.aggregation)
        report_windows = aggregate(features[n_rows:], size, overlap, params.aggregation)
        del features
        if params.centre:
            common = np.concatenate([transcript_windows, report_windows]).mean(axis=0)
            transcript_windows = transcript_windows - common
            report_windows = report_windows - common
        window_scores = cosine_matrix(transcript_windows, report_windows)
    scores = reduce_to_sentences(
        window_scores, (n_rows, size, overlap), (n_cols, size, overlap), params.reduction
    )
    return np.ascontiguousarray(scores, dtype=np.float32)


def _rouge_windows(
    transcript: list[list[int]],
    report: list[list[int]],
    vocabulary: Vocabulary,
    params: ScoringParams,
) -> np.ndarray:
    """ROUGE between windows whose text is the concatenation ("cat") of their sentences."""
    size, overlap = params.window_size, params.window_overlap
    n_rows = len(transcript)
    if params.rouge_variant == "l":
        return rouge_l(_concatenate(transcript, size, overlap), _concatenate(report, size, overlap))
    parts = []
    if params.rouge_variant in ("1", "12"):
        parts.append(count_matrix(transcript + report, len(vocabulary)))
    if params.rouge_variant in ("2", "12"):
        bigrams, n_bigrams = bigram_ids(transcript + report)
        parts.append(count_matrix(bigrams, max(n_bigrams, 1)))
    if not parts:
        raise ValueError(f"unknown ROUGE variant {params.rouge_variant!r}")
    scores = [
        rouge_n(
            sp.csr_matrix(aggregate(counts[:n_rows], size, overlap, "cat")),
            sp.csr_matrix(aggregate(counts[n_rows:], size, overlap, "cat")),
        )
        for counts in parts
    ]
    return (sum(scores) / np.float32(len(scores))).astype(np.float32)


def _concatenate(sentences: list[list[int]], size: int, overlap: int) -> list[list[int]]:
    return [
        [token for sentence in sentences[start : start + size] for token in sentence]
        for start in window_starts(len(sentences), size, overlap)
    ]
