"""How far one document's review must go on to keep the plan's residual error, against a brute
force over every threshold with the shift found on a grid; what it asks of reviews that agree
with the calibration, find it optimistic or find it pessimistic; and the threshold a saved
review has come to, against the rounds played out; and the turns next to changed ones."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workers.align.annotation.logit_shift import CONFIDENCE_FLOOR
from workers.align.annotation.review import (
    SHIFT_PRIOR_PRECISION,
    ReviewedDocument,
    confidences_after_review,
    next_to_changes,
    threshold_after_review,
    threshold_reached,
    turns_to_review,
)


def shift_by_grid(logits: np.ndarray, kept: np.ndarray) -> float:
    grid = np.arange(-12.0, 12.0, 0.0005)
    probabilities = 1.0 / (1.0 + np.exp(-(logits[None, :] + grid[:, None])))
    likelihood = np.where(kept, np.log(probabilities), np.log(1.0 - probabilities)).sum(axis=1)
    return float(grid[np.argmax(likelihood - 0.5 * SHIFT_PRIOR_PRECISION * grid**2)])


def threshold_by_brute_force(document: ReviewedDocument, planned: float) -> float:
    """Every threshold from `planned` up, tried in order, with the doubts written out."""
    confidences = np.clip(document.confidences, CONFIDENCE_FLOOR, 1 - CONFIDENCE_FLOOR)
    logits = np.log(confidences / (1 - confidences))
    evidence = document.shown & document.read
    shift = shift_by_grid(logits[evidence], document.kept[evidence])
    promised = sum(1 - c for c in document.confidences if not c < planned)
    above = sorted(c for c in set(document.confidences.tolist()) if c > planned)
    for threshold in [planned, *above, np.nextafter(max(document.confidences), np.inf)]:
        left = sum(
            1 - 1 / (1 + np.exp(-(logit + shift)))
            for logit, confidence in zip(logits, document.confidences, strict=True)
            if not confidence < threshold
        )
        if left <= promised + 1e-9:
            return float(threshold)
    raise AssertionError("showing every turn leaves nothing")


TURNS = st.lists(
    st.tuples(
        st.sampled_from([0.3, 0.55, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0]), st.booleans(), st.booleans()
    ),
    min_size=1,
    max_size=25,
)


@settings(max_examples=60, deadline=None)
@given(TURNS, st.sampled_from([0.0, 0.6, 0.85, 0.92, 1.0]))
def test_the_threshold_is_the_brute_force_ones(turns, planned):
    confidences = np.array([c for c, _, _ in turns], dtype=np.float64)
    shown = turns_to_review(confidences, planned)
    read = shown | np.array([r for _, r, _ in turns])
    kept = read & np.array([k for _, _, k in turns])
    document = ReviewedDocument(confidences, shown, read, kept)
    expected = threshold_by_brute_force(document, planned)
    found = threshold_after_review(document, planned)
    # The grid's shift is within its step of the bisection's; a doubt sum that lands within
    # that of the plan's may tip either way, so only the thresholds around it may differ.
    assert found == expected or abs(
        (1 - confidences_after_review(document))[~turns_to_review(confidences, found)].sum()
        - sum(1 - c for c in confidences if not c < planned)
    ) == pytest.approx(0, abs=1e-3)


def reviewed(rng, confidences, planned, right_rate_of) -> ReviewedDocument:
    """The shown turns read, each kept with probability `right_rate_of(confidence)`."""
    shown = turns_to_review(confidences, planned)
    kept = shown & (rng.random(len(confidences)) < right_rate_of(confidences))
    return ReviewedDocument(confidences, shown, shown, kept)


def test_a_review_that_agrees_with_the_calibration_needs_little_more():
    rng = np.random.default_rng(3)
    confidences = rng.uniform(0.6, 1.0, 2000)
    document = reviewed(rng, confidences, 0.85, lambda p: p)
    extended = threshold_after_review(document, 0.85)
    more = turns_to_review(confidences, extended) & ~document.read
    assert more.sum() < 0.05 * len(confidences)


def test_a_review_that_finds_more_errors_than_expected_reads_on():
    rng = np.random.default_rng(4)
    confidences = rng.uniform(0.6, 1.0, 2000)
    document = reviewed(rng, confidences, 0.85, lambda p: p - 0.3)
    extended = threshold_after_review(document, 0.85)
    assert extended > 0.9
    hidden = ~turns_to_review(confidences, extended)
    promised = (1 - confidences[~document.shown]).sum()
    assert (1 - confidences_after_review(document))[hidden].sum() <= promised


def test_a_review_that_keeps_every_shown_turn_reads_nothing_more():
    confidences = np.linspace(0.6, 1.0, 400)
    shown = turns_to_review(confidences, 0.85)
    document = ReviewedDocument(confidences, shown, shown, shown)
    assert threshold_after_review(document, 0.85) == 0.85


def test_nothing_shown_and_nothing_read_keeps_the_plan():
    confidences = np.array([0.9, 0.95, 0.99])
    nothing = np.zeros(3, dtype=bool)
    unread = ReviewedDocument(confidences, nothing, nothing, nothing)
    assert threshold_after_review(unread, 0.5) == 0.5


def test_the_threshold_reached_waits_for_the_shown_turns_to_be_read():
    rng = np.random.default_rng(5)
    confidences = rng.uniform(0.6, 1.0, 500)
    shown = turns_to_review(confidences, 0.85)
    nothing_kept = np.zeros(500, dtype=bool)
    half_read = shown & (np.arange(500) % 2 == 0)
    assert threshold_reached(confidences, half_read, nothing_kept, 0.85) == 0.85
    assert threshold_reached(confidences, shown, nothing_kept, 0.85) > 0.85


def test_the_threshold_reached_is_each_finished_rounds_top_up_in_turn():
    """Rounds played out: read every shown turn, keep each with a probability well under its
    confidence, ask for the top-up, until it asks for nothing more; at every step the saved
    state alone gives the threshold the rounds came to."""
    rng = np.random.default_rng(6)
    confidences = rng.uniform(0.6, 1.0, 800)
    right = rng.random(800) < confidences - 0.25
    read = np.zeros(800, dtype=bool)
    threshold = 0.8
    rounds = 0
    while True:
        read |= turns_to_review(confidences, threshold)
        kept = read & right
        assert threshold_reached(confidences, read, kept, 0.8) >= threshold
        further = threshold_after_review(
            ReviewedDocument(confidences, turns_to_review(confidences, threshold), read, kept), 0.8
        )
        if not (turns_to_review(confidences, further) & ~read).any():
            break
        threshold = further
        rounds += 1
        assert threshold_reached(confidences, read, kept, 0.8) == threshold
    assert rounds >= 2
    assert threshold_reached(confidences, read, read & right, 0.8) == threshold


def test_a_review_that_keeps_every_shown_turn_reaches_the_plan():
    confidences = np.linspace(0.6, 1.0, 400)
    shown = turns_to_review(confidences, 0.85)
    assert threshold_reached(confidences, shown, shown, 0.85) == 0.85


@settings(max_examples=100, deadline=None)
@given(st.lists(st.booleans(), max_size=30))
def test_the_turns_next_to_changes_are_those_a_turn_away(changed):
    near = next_to_changes(np.array(changed, dtype=bool))

    for turn in range(len(changed)):
        expected = (turn > 0 and changed[turn - 1]) or (
            turn + 1 < len(changed) and changed[turn + 1]
        )
        assert near[turn] == expected
