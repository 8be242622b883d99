"""Sentence-pair similarity matrices (transcript sentences x report sentences, float32)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import scipy.sparse as sp
from gensim.models import KeyedVectors

from workers.align.scoring.lsa import lsa_vectors, tfidf
from workers.align.scoring.pooling import Pooling, pool_sentences, unit_rows
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
    window_span,
    window_starts,
)
from workers.align.setting_fields import setting

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

    method: Method = setting(
        "embedding", "word2vec vectors trained on the texts, tf-idf (+ LSA) or ROUGE"
    )
    window_size: int = setting(2, "sentences per sliding window (equation 1)")
    window_overlap: int = setting(1, "sentences a window shares with the next, < window_size")
    aggregation: Aggregation = setting("sum", "how a window combines its sentences' features")
    reduction: Reduction = setting(
        "product", "how window similarities become sentence similarities (equations 2-3)"
    )
    pooling: Pooling = setting("sum", "how word vectors become a sentence vector")
    idf_weighting: bool = setting(False, "weigh word vectors by inverse document frequency")
    lsa_components: int = setting(100, "LSA dimensions of tf-idf scoring")
    rouge_variant: RougeVariant = setting("12", "ROUGE-1, -2, -L, or 1 and 2 together")
    centre: bool = setting(
        False, "remove the meeting's mean window vector before the cosine (vector methods)"
    )

    def validate(self) -> None:
        window_starts(1, self.window_size, self.window_overlap)


def similarity_matrix(
    transcript_sentences: Sequence[str],
    report_sentences: Sequence[str],
    params: ScoringParams,
    vectors: KeyedVectors | None = None,
) -> np.ndarray:
    """S of equation 3, before normalisation, whole; `vectors` is required for the embedding
    method.

    Normalisation is left to the caller because abstention reads the raw level: z-scores find
    the best match even in a transcript that matches nothing of the report.
    """
    scorer = sentence_scorer(transcript_sentences, report_sentences, params, vectors)
    return scorer.rows(0, scorer.shape[0])


@dataclass(frozen=True, eq=False)
class SentenceScorer:
    """S of equation 3 for any range of transcript sentences, without the whole matrix.

    Everything that needs every sentence (vocabulary, idf, LSA, the mean window vector that
    centring removes) is computed once when the scorer is made; `rows` then scores a block of
    transcript sentences against the whole report. The rows of a block equal those rows of the
    whole matrix exactly (the vector methods multiply fixed ranges of windows, see
    PRODUCT_ROWS), so a reader of blocks gives the labels of a reader of the whole.
    """

    shape: tuple[int, int]
    params: ScoringParams
    window_rows: Callable[[int, int], np.ndarray]
    """(end - first, report windows) float32 scores of transcript windows first..end-1."""

    def rows(self, start: int, stop: int) -> np.ndarray:
        """(stop - start, n_cols) float32: rows start..stop-1 of S."""
        n_rows, n_cols = self.shape
        if not 0 <= start <= stop <= n_rows:
            raise ValueError(f"rows {start}..{stop} are outside the {n_rows} transcript sentences")
        if start == stop or n_cols == 0:
            return np.zeros((stop - start, n_cols), dtype=np.float32)
        size, overlap = self.params.window_size, self.params.window_overlap
        first, end = window_span(start, stop, n_rows, size, overlap)
        scores = reduce_to_sentences(
            self.window_rows(first, end),
            (n_rows, size, overlap),
            (n_cols, size, overlap),
            self.params.reduction,
            rows=(start, stop),
        )
        return np.ascontiguousarray(scores, dtype=np.float32)


def sentence_scorer(
    transcript_sentences: Sequence[str],
    report_sentences: Sequence[str],
    params: ScoringParams,
    vectors: KeyedVectors | None = None,
) -> SentenceScorer:
    """A scorer of one transcript against one report; `vectors` is required for the embedding
    method."""
    vocabulary = Vocabulary()
    transcript = [vocabulary.encode(lexical_tokens(s)) for s in transcript_sentences]
    report = [vocabulary.encode(lexical_tokens(s)) for s in report_sentences]
    n_rows, n_cols = len(transcript), len(report)
    shape = (n_rows, n_cols)
    if n_rows == 0 or n_cols == 0:
        empty = np.zeros((0, 1), dtype=np.float32)
        return SentenceScorer(shape, params, _Cosines(empty, empty))
    size, overlap = params.window_size, params.window_overlap
    if params.method == "rouge":
        if params.centre:
            raise ValueError("centre applies to vector methods (embedding, tfidf), not rouge")
        return SentenceScorer(shape, params, _rouge_windows(transcript, report, vocabulary, params))
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
    return SentenceScorer(shape, params, _Cosines(transcript_windows, report_windows))


PRODUCT_ROWS = 256
"""Transcript windows one BLAS product multiplies. A float32 product's last bits depend on the
kernel BLAS picks for its shape, and on where a row falls among the tiles and threads of the
product (OpenBLAS 0.3.31 on AVX-512 gave a block's rows up to 3e-7 away from the same rows of
the whole product). Products over fixed ranges of windows, at multiples of this count from
the first window, are the same calls whatever block asks for them, so every block's rows are
exactly the whole matrix's on any machine."""


class _Cosines:
    """Cosines between window vectors: unit rows, multiplied PRODUCT_ROWS transcript windows
    at a time."""

    def __init__(self, transcript_windows: np.ndarray, report_windows: np.ndarray) -> None:
        self.transcript = unit_rows(transcript_windows)
        self.report = unit_rows(report_windows)

    def __call__(self, first: int, end: int) -> np.ndarray:
        """(end - first, report windows) float32."""
        scores = np.empty((end - first, len(self.report)), dtype=np.float32)
        aligned = first - first % PRODUCT_ROWS
        for start in range(aligned, end, PRODUCT_ROWS):
            stop = min(start + PRODUCT_ROWS, len(self.transcript))
            product = self.transcript[start:stop] @ self.report.T
            keep_from, keep_to = max(start, first), min(stop, end)
            scores[keep_from - first : keep_to - first] = product[
                keep_from - start : keep_to - start
            ]
        return scores


def _rouge_windows(
    transcript: list[list[int]],
    report: list[list[int]],
    vocabulary: Vocabulary,
    params: ScoringParams,
) -> Callable[[int, int], np.ndarray]:
    """ROUGE between windows whose text is the concatenation ("cat") of their sentences."""
    size, overlap = params.window_size, params.window_overlap
    n_rows = len(transcript)
    if params.rouge_variant == "l":
        left, right = _concatenate(transcript, size, overlap), _concatenate(report, size, overlap)
        return lambda first, end: rouge_l(left[first:end], right)
    parts = []
    if params.rouge_variant in ("1", "12"):
        parts.append(count_matrix(transcript + report, len(vocabulary)))
    if params.rouge_variant in ("2", "12"):
        bigrams, n_bigrams = bigram_ids(transcript + report)
        parts.append(count_matrix(bigrams, max(n_bigrams, 1)))
    if not parts:
        raise ValueError(f"unknown ROUGE variant {params.rouge_variant!r}")
    windows = [
        (
            sp.csr_matrix(aggregate(counts[:n_rows], size, overlap, "cat")),
            sp.csr_matrix(aggregate(counts[n_rows:], size, overlap, "cat")),
        )
        for counts in parts
    ]

    def scores(first: int, end: int) -> np.ndarray:
        each = [rouge_n(left[first:end], right) for left, right in windows]
        return np.asarray(sum(each) / np.float32(len(each)), dtype=np.float32)

    return scores


def _concatenate(sentences: list[list[int]], size: int, overlap: int) -> list[list[int]]:
    return [
        [token for sentence in sentences[start : start + size] for token in sentence]
        for start in window_starts(len(sentences), size, overlap)
    ]
