from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workers.align.scoring.normalise import normalise, signed_power
from workers.align.scoring.rouge import rouge_l, rouge_n
from workers.align.scoring.similarity import ScoringParams, sentence_scorer, similarity_matrix
from workers.align.scoring.tokens import Vocabulary, count_matrix
from workers.align.scoring.vectors import TrainingSettings, train_vectors
from workers.align.scoring.windows import (
    aggregate,
    reduce_to_sentences,
    window_span,
    window_starts,
)


def _naive_rouge_n_f(left: list[int], right: list[int]) -> float:
    overlap = sum(min(left.count(t), right.count(t)) for t in set(left))
    total = len(left) + len(right)
    return 2.0 * overlap / total if total else 0.0


def _naive_lcs(left: list[int], right: list[int]) -> int:
    table = [[0] * (len(right) + 1) for _ in range(len(left) + 1)]
    for i, j in itertools.product(range(len(left)), range(len(right))):
        table[i + 1][j + 1] = (
            table[i][j] + 1 if left[i] == right[j] else max(table[i][j + 1], table[i + 1][j])
        )
    return table[-1][-1]


texts = st.lists(st.lists(st.integers(0, 5), max_size=8), min_size=1, max_size=6)


@settings(max_examples=100, deadline=None)
@given(texts, texts)
def test_vectorised_rouge_1_equals_the_counting_definition(left, right):
    vocabulary = 6
    scores = rouge_n(count_matrix(left, vocabulary), count_matrix(right, vocabulary))
    expected = [[_naive_rouge_n_f(a, b) for b in right] for a in left]
    np.testing.assert_allclose(scores, np.array(expected, np.float32), rtol=1e-6)


@settings(max_examples=100, deadline=None)
@given(texts, texts)
def test_rouge_l_kernel_equals_the_lcs_definition(left, right):
    scores = rouge_l(left, right)
    expected = [
        [2.0 * _naive_lcs(a, b) / (len(a) + len(b)) if a and b else 0.0 for b in right]
        for a in left
    ]
    np.testing.assert_allclose(scores, np.array(expected, np.float32), rtol=1e-6)


@pytest.mark.parametrize(
    ("n", "size", "overlap", "starts"),
    [
        (5, 2, 1, [0, 1, 2, 3]),
        (5, 3, 1, [0, 2]),
        (6, 3, 1, [0, 2, 4]),
        (1, 2, 1, [0]),
        (0, 2, 1, []),
    ],
)
def test_window_starts_cover_every_sentence(n, size, overlap, starts):
    assert window_starts(n, size, overlap).tolist() == starts


@pytest.mark.parametrize(("size", "overlap"), [(1, 0), (2, 1), (3, 1), (4, 2), (3, 0)])
@pytest.mark.parametrize("reduction", ["sum", "product"])
def test_reduction_equals_equation_three(size, overlap, reduction):
    rng = np.random.default_rng(size * 10 + overlap)
    n_rows, n_cols = 7, 5
    rows, cols = window_starts(n_rows, size, overlap), window_starts(n_cols, size, overlap)
    window_scores = rng.random((len(rows), len(cols))).astype(np.float32)
    result = reduce_to_sentences(
        window_scores, (n_rows, size, overlap), (n_cols, size, overlap), reduction
    )
    for i, j in itertools.product(range(n_rows), range(n_cols)):
        values = [
            window_scores[k, m]
            for k, start in enumerate(rows)
            for m, col_start in enumerate(cols)
            if start <= i < start + size and col_start <= j < col_start + size
        ]
        expected = sum(values) if reduction == "sum" else np.prod(values)
        assert result[i, j] == pytest.approx(expected, rel=1e-5)


window_shapes = st.sampled_from([(1, 0), (2, 1), (3, 1), (4, 2), (3, 0), (5, 4)])


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 30), window_shapes, st.data())
def test_window_span_holds_exactly_the_windows_of_a_row_range(n, shape, data):
    size, overlap = shape
    start = data.draw(st.integers(0, n - 1))
    stop = data.draw(st.integers(start + 1, n))
    starts = window_starts(n, size, overlap)
    holding = [k for k, first in enumerate(starts) if first < stop and first + size > start]
    first, end = window_span(start, stop, n, size, overlap)
    assert list(range(first, end)) == holding


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 12), st.integers(1, 9), window_shapes, st.sampled_from(["sum", "product"]))
def test_reducing_a_row_range_gives_those_rows_of_the_whole_bit_for_bit(
    n_rows, n_cols, shape, reduction
):
    size, overlap = shape
    rng = np.random.default_rng(n_rows * 100 + n_cols)
    rows, cols = window_starts(n_rows, size, overlap), window_starts(n_cols, size, overlap)
    window_scores = rng.uniform(-1, 1, (len(rows), len(cols))).astype(np.float32)
    sides = (n_rows, size, overlap), (n_cols, size, overlap)
    whole = reduce_to_sentences(window_scores, *sides, reduction)
    for start in range(n_rows):
        for stop in range(start + 1, n_rows + 1):
            first, end = window_span(start, stop, n_rows, size, overlap)
            part = reduce_to_sentences(
                window_scores[first:end], *sides, reduction, rows=(start, stop)
            )
            np.testing.assert_array_equal(part, whole[start:stop])


@settings(max_examples=60, deadline=None)
@given(
    texts,
    texts,
    st.sampled_from(["1", "2", "l", "12"]),
    window_shapes,
    st.sampled_from(["sum", "product"]),
)
def test_rouge_scorer_rows_are_the_rows_of_the_whole_matrix(left, right, variant, shape, reduction):
    """ROUGE counts without BLAS, so any block of rows is exact (vector methods, which multiply
    with BLAS, are checked on real meetings in test_blocked_engine)."""
    transcript = [" ".join(f"w{token}" for token in sentence) for sentence in left]
    report = [" ".join(f"w{token}" for token in sentence) for sentence in right]
    params = ScoringParams(
        method="rouge",
        rouge_variant=variant,
        window_size=shape[0],
        window_overlap=shape[1],
        reduction=reduction,
    )
    whole = similarity_matrix(transcript, report, params)
    scorer = sentence_scorer(transcript, report, params)
    for start in range(len(transcript)):
        for stop in range(start, len(transcript) + 1):
            np.testing.assert_array_equal(scorer.rows(start, stop), whole[start:stop])
    with pytest.raises(ValueError, match="outside"):
        scorer.rows(0, len(transcript) + 1)


def test_window_aggregation_of_vectors():
    features = np.arange(10, dtype=np.float32).reshape(5, 2)
    assert aggregate(features, 2, 1, "sum")[0].tolist() == [2, 4]
    assert aggregate(features, 2, 1, "mean")[1].tolist() == [3, 4]
    assert aggregate(features, 3, 1, "max")[-1].tolist() == [8, 9]


def test_normalisation_and_signed_power():
    scores = np.array([[1.0, 3.0], [2.0, 6.0]], np.float32)
    rows = normalise(scores, "rows")
    np.testing.assert_allclose(rows, [[-1, 1], [-1, 1]])
    assert signed_power(np.array([-2.0, 2.0], np.float32), 2.0).tolist() == [-4.0, 4.0]


SENTENCES = [
    "le conseil vote le budget de la ville",
    "la séance est ouverte par le maire",
    "le budget de la ville est adopté",
    "nous parlons des écoles et des enfants",
    "les écoles de la ville accueillent les enfants",
] * 4


def test_word_vectors_are_deterministic_and_cached(tmp_path):
    training = TrainingSettings(dimensions=8, epochs=2, min_count=1)
    first = train_vectors(SENTENCES, training, cache_directory=tmp_path)
    assert list(tmp_path.glob("*.kv"))
    from workers.align.scoring import vectors as module

    module._MEMORY_CACHE.clear()
    again = train_vectors(SENTENCES, training, cache_directory=None)
    np.testing.assert_array_equal(first.vectors, again.vectors)


@pytest.mark.parametrize(
    "params",
    [
        ScoringParams(method="embedding", window_size=1, window_overlap=0),
        ScoringParams(method="embedding", pooling="max", idf_weighting=True, aggregation="max"),
        ScoringParams(method="tfidf", lsa_components=3, window_size=1, window_overlap=0),
        ScoringParams(method="rouge", rouge_variant="12", window_size=1, window_overlap=0),
        ScoringParams(method="rouge", rouge_variant="l", window_size=1, window_overlap=0),
        ScoringParams(method="tfidf", lsa_components=3, aggregation="mean", reduction="sum"),
        ScoringParams(method="rouge", rouge_variant="2", aggregation="cat", reduction="sum"),
    ],
)
def test_every_method_scores_related_sentences_higher(params, tmp_path):
    vectors = train_vectors(
        SENTENCES, TrainingSettings(dimensions=8, epochs=5, min_count=1), tmp_path
    )
    transcript = ["le budget de la ville est voté", "les enfants vont dans les écoles"]
    report = ["budget de la ville adopté", "écoles et enfants de la ville"]
    scores = similarity_matrix(transcript, report, params, vectors)
    assert scores.shape == (2, 2)
    assert scores.dtype == np.float32
    if params.method != "embedding" and params.window_size == 1:
        assert scores[0, 0] > scores[0, 1]
        assert scores[1, 1] > scores[1, 0]


def test_empty_sides_give_empty_matrices():
    assert similarity_matrix([], ["a"], ScoringParams(method="rouge")).shape == (0, 1)


def test_vocabulary_shares_ids_across_sides():
    vocabulary = Vocabulary()
    assert vocabulary.encode(["a", "b", "a"]) == [0, 1, 0]
    assert vocabulary.encode(["b", "c"]) == [1, 2]
