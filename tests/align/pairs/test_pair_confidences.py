"""An automatic pair's confidence, stored per pre-alignment as a sorted array, must be what the
export computes for that pair (`pair_confidence`), and counting the pairs that reach a
threshold from it what filtering every pair says."""

from hypothesis import given, settings
from hypothesis import strategies as st

from workers.align.document_model import UNALIGNED
from workers.align.pairs.shape import (
    automatic_pair_confidences,
    pair_confidence,
    pairs_reaching,
)

TURNS = st.lists(
    st.tuples(
        st.integers(min_value=UNALIGNED, max_value=6),
        st.floats(min_value=0, max_value=1, allow_nan=False),
    ),
    max_size=40,
)
THRESHOLDS = st.one_of(
    st.floats(min_value=0, max_value=1, allow_nan=False), st.sampled_from([0.0, 0.5, 0.8, 1.0])
)


def pairs_by_definition(labels: list[int], confidences: list[float]) -> list[float]:
    turns_of: dict[int, list[int]] = {}
    for turn, label in enumerate(labels):
        if label != UNALIGNED:
            turns_of.setdefault(label, []).append(turn)
    return [pair_confidence("automatic", confidences, turns) for turns in turns_of.values()]


@settings(max_examples=300, deadline=None)
@given(turns=TURNS, threshold=THRESHOLDS)
def test_stored_pair_confidences_are_the_exports_and_count_like_its_filter(turns, threshold):
    labels = [label for label, _ in turns]
    confidences = [confidence for _, confidence in turns]
    expected = pairs_by_definition(labels, confidences)

    stored = automatic_pair_confidences(labels, confidences)

    assert stored.tolist() == sorted(expected)
    assert pairs_reaching(stored, threshold) == sum(value >= threshold for value in expected)


def test_a_pair_is_as_confident_as_its_least_confident_turn():
    labels = [0, 0, UNALIGNED, 1, 2, 2, 2]
    confidences = [0.9, 0.7, 0.1, 0.95, 0.8, 0.85, 0.99]

    stored = automatic_pair_confidences(labels, confidences)

    assert stored.tolist() == [0.7, 0.8, 0.95]
    assert [pairs_reaching(stored, t) for t in (0.0, 0.75, 0.8, 0.96)] == [3, 2, 2, 0]
