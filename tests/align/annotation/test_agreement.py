"""Agreement measures against published worked examples, the `krippendorff` package and
properties any agreement coefficient must have."""

from __future__ import annotations

import krippendorff
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workers.align.annotation.agreement import (
    MISSING,
    CodedDocument,
    agreement,
    cohen_kappa,
    krippendorff_alpha,
    symmetric_window,
)
from workers.align.document_model import UNALIGNED
from workers.align.metrics import boundary_flags, pk, windowdiff

M = MISSING

KRIPPENDORFF_4_CODERS_12_UNITS = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, M, M, M],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, M, 3],
    [M, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, M],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, M],
]
"""Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: four
observers, twelve units, missing values; nominal alpha 0.743."""

KRIPPENDORFF_2_CODERS_BINARY = [
    [0, 1, 0, 0, 0, 0, 0, 0, 1, 0],
    [1, 1, 1, 0, 0, 1, 0, 0, 0, 0],
]
"""The same paper, section A: two observers, binary data, ten units; alpha 0.095."""


def test_krippendorff_worked_example_with_missing_values():
    alpha = krippendorff_alpha(np.array(KRIPPENDORFF_4_CODERS_12_UNITS))
    assert round(alpha, 3) == 0.743
    assert alpha == pytest.approx(0.743421052631579, abs=1e-12)


def test_krippendorff_binary_worked_example():
    assert round(krippendorff_alpha(np.array(KRIPPENDORFF_2_CODERS_BINARY)), 3) == 0.095


def test_ordinal_alpha_hand_computed():
    """Two raters, three units (1, 1), (1, 2), (2, 3). Values: n_1 = 3, n_2 = 2, n_3 = 1,
    n = 6. Coincidences o_11 = 2, o_12 = o_21 = 1, o_23 = o_32 = 1. Ordinal deltas:
    d_12 = (3 + 2 - 5/2)^2 = 6.25, d_23 = (2 + 1 - 3/2)^2 = 2.25, d_13 = (6 - 2)^2 = 16.
    Observed sum o*d = 2 * 6.25 + 2 * 2.25 = 17; expected sum n_c n_k d = 2 * (3*2*6.25 +
    2*1*2.25 + 3*1*16) = 180. alpha = 1 - (n - 1) * 17 / 180 = 95 / 180."""
    assert krippendorff_alpha(np.array([[1, 1, 2], [1, 2, 3]]), level="ordinal") == (
        pytest.approx(95 / 180, abs=1e-12)
    )
    assert krippendorff_alpha(np.array([[1, 1, 2], [1, 2, 3]])) != pytest.approx(95 / 180)


def test_ordinal_alpha_of_the_worked_example_with_missing_values():
    """Krippendorff (2011) section C's data as ordinal: 0.815."""
    alpha = krippendorff_alpha(np.array(KRIPPENDORFF_4_CODERS_12_UNITS), level="ordinal")
    assert round(alpha, 3) == 0.815


def test_ordinal_alpha_weighs_distant_ranks_more():
    near = np.array([[0, 1, 2, 2, 0, 1], [1, 1, 2, 2, 0, 1]])
    far = np.array([[0, 1, 2, 2, 0, 1], [2, 1, 2, 2, 0, 1]])
    assert krippendorff_alpha(near, level="ordinal") > krippendorff_alpha(far, level="ordinal")
    assert krippendorff_alpha(np.array([[2, 2], [2, 2]]), level="ordinal") is None
    with pytest.raises(ValueError, match="level"):
        krippendorff_alpha(near, level="interval")  # type: ignore[arg-type]


def test_cohen_kappa_textbook_table_20_5_10_15():
    """Both say yes 20 times, yes/no 5, no/yes 10, both no 15: p_o = 0.7, p_e = 0.5."""
    first = [1] * 20 + [1] * 5 + [0] * 10 + [0] * 15
    second = [1] * 20 + [0] * 5 + [1] * 10 + [0] * 15
    assert cohen_kappa(first, second) == pytest.approx(0.40, abs=1e-12)


def test_undefined_figures_are_none():
    assert cohen_kappa([], []) is None
    assert cohen_kappa([3, 3, 3], [3, 3, 3]) is None
    assert krippendorff_alpha(np.array([[1, M], [M, 1]])) is None
    assert krippendorff_alpha(np.array([[2, 2], [2, 2]])) is None


def test_pair_figures_on_a_small_document():
    document = CodedDocument(
        labels={"ann": [0, 0, 1, 1, UNALIGNED, 2], "bob": [0, 1, 1, 1, UNALIGNED, UNALIGNED]},
        word_counts=[1, 2, 3, 4, 5, 6],
    )
    report = agreement([document])
    (pair,) = report.pairs
    assert pair.coders == ("ann", "bob")
    assert pair.units == 6
    assert pair.unit_words == 21
    assert pair.turn_agreement == pytest.approx(100 * 4 / 6)
    assert pair.word_agreement == pytest.approx(100 * (1 + 3 + 4 + 5) / 21)
    assert pair.unaligned_agreement == pytest.approx(100 * 5 / 6)
    assert pair.kappa == pytest.approx(cohen_kappa([0, 0, 1, 1, -1, 2], [0, 1, 1, 1, -1, -1]))
    assert report.overall.alpha == pair.alpha
    assert report.overall.kappa == pair.kappa
    assert report.overall.turn_agreement == pair.turn_agreement


def test_boundaries_use_the_engines_windowdiff_and_pk_with_a_window_favouring_neither():
    first = [0] * 10 + [1] * 10 + [2] * 10 + [3] * 10
    second = [0] * 12 + [1] * 8 + [2] * 14 + [3] * 6
    (pair,) = agreement(
        [CodedDocument(labels={"a": first, "b": second}, word_counts=[1] * 40)]
    ).pairs
    flags_a, flags_b = boundary_flags(first), boundary_flags(second)
    k = symmetric_window(flags_a, flags_b)
    assert k == symmetric_window(flags_b, flags_a) == 4
    assert pair.windowdiff == pytest.approx(100 * windowdiff(flags_a, flags_b, k))
    assert pair.pk == pytest.approx(100 * pk(flags_a, flags_b, k))
    assert pair.windowdiff > 0


def test_pooled_documents_do_not_confuse_segments_of_different_documents():
    """Segment 0 of one meeting is not segment 0 of another: pooling two documents where each
    coder labels everything with segment 0 is perfect agreement on two categories."""
    documents = [
        CodedDocument(labels={"a": [0, 0], "b": [0, 0]}, word_counts=[1, 1]),
        CodedDocument(labels={"a": [0, 0], "b": [0, 0]}, word_counts=[1, 1]),
    ]
    report = agreement(documents)
    assert report.overall.alpha == 1.0
    assert report.overall.kappa == 1.0


def test_coders_missing_from_a_document_are_missing_values():
    documents = [
        CodedDocument(labels={"a": [0, 1, 1], "b": [0, 1, 2]}, word_counts=[1, 1, 1]),
        CodedDocument(labels={"a": [0, 0], "c": [0, 1]}, word_counts=[1, 1]),
        CodedDocument(labels={"c": [0, 1, 1]}, word_counts=[1, 1, 1]),
    ]
    report = agreement(documents)
    pairs = {pair.coders: pair for pair in report.pairs}
    assert pairs["a", "b"].documents == 1
    assert pairs["a", "b"].units == 3
    assert pairs["a", "c"].units == 2
    assert pairs["b", "c"].units == 0
    assert pairs["b", "c"].turn_agreement is None
    assert pairs["b", "c"].kappa is None
    assert pairs["b", "c"].windowdiff is None
    assert report.overall.units == 5
    assert report.overall.documents == 2
    assert report.overall.turn_agreement == pytest.approx(100 * 3 / 5)


def test_nothing_to_compare_gives_undefined_figures():
    for documents in ([], [CodedDocument(labels={"a": [0, 1]}, word_counts=[1, 1])]):
        report = agreement(documents)
        assert report.overall.units == 0
        assert report.overall.turn_agreement is None
        assert report.overall.alpha is None


def test_a_coder_labelling_the_wrong_length_is_refused():
    with pytest.raises(ValueError, match="labels 2 turns of a 3-turn document"):
        agreement([CodedDocument(labels={"a": [0, 1], "b": [0, 1, 1]}, word_counts=[1, 1, 1])])


labels = st.integers(min_value=-1, max_value=5)


@st.composite
def reliability_data(draw):
    coders = draw(st.integers(min_value=2, max_value=5))
    units = draw(st.integers(min_value=1, max_value=30))
    values = st.one_of(st.just(MISSING), labels)
    return np.array(draw(st.lists(st.lists(values, min_size=units, max_size=units),
                                  min_size=coders, max_size=coders)))  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(reliability_data())
def test_alpha_equals_the_krippendorff_package(data):
    dense = data.astype(float)
    dense[data == MISSING] = np.nan
    ours = krippendorff_alpha(data)
    pairable = data[:, (data != MISSING).sum(axis=0) >= 2]
    if ours is None:
        assert len(set(pairable[pairable != MISSING].tolist())) <= 1
        return
    expected = krippendorff.alpha(reliability_data=dense, level_of_measurement="nominal")
    assert ours == pytest.approx(expected, abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(reliability_data())
def test_ordinal_alpha_equals_the_krippendorff_package(data):
    dense = data.astype(float)
    dense[data == MISSING] = np.nan
    ours = krippendorff_alpha(data, level="ordinal")
    if ours is None:
        return
    expected = krippendorff.alpha(reliability_data=dense, level_of_measurement="ordinal")
    assert ours == pytest.approx(expected, abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(st.lists(labels, min_size=2, max_size=60).filter(lambda xs: len(set(xs)) > 1))
def test_perfect_agreement_gives_one(sequence):
    document = CodedDocument(labels={"a": sequence, "b": list(sequence), "c": list(sequence)},
                             word_counts=[1] * len(sequence))  # fmt: skip
    report = agreement([document])
    for figure in (report.overall, *report.pairs):
        assert figure.kappa == pytest.approx(1.0)
        assert figure.alpha == pytest.approx(1.0)
        assert figure.turn_agreement == figure.word_agreement == figure.unaligned_agreement == 100.0
        assert figure.windowdiff == figure.pk
        assert figure.windowdiff in (None, 0.0), "undefined on short segments, else 0"


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(labels, labels, labels), min_size=1, max_size=60),
    st.permutations(list(range(-1, 6))),
)
def test_renaming_labels_changes_no_coefficient(rows, permutation):
    rename = dict(zip(range(-1, 6), permutation, strict=True))
    data = np.array(rows).T
    renamed = np.vectorize(rename.get)(data)
    assert _same(cohen_kappa(data[0], data[1]), cohen_kappa(renamed[0], renamed[1]))
    assert _same(krippendorff_alpha(data), krippendorff_alpha(renamed))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(labels, labels), min_size=1, max_size=60))
def test_kappa_is_symmetric_and_at_most_one(rows):
    first, second = np.array(rows).T
    kappa = cohen_kappa(first, second)
    assert _same(kappa, cohen_kappa(second, first))
    assert kappa is None or kappa <= 1.0 + 1e-12


def _same(a: float | None, b: float | None) -> bool:
    return (a is None and b is None) or (
        a is not None and b is not None and a == pytest.approx(b, abs=1e-9)
    )
