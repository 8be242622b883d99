"""The rating study's statistics: Wilson intervals, equal-count bins, the stratified draw and
the weighted estimate."""

import numpy as np
import pytest

from workers.align.annotation.rating import (
    Bin,
    RatedPair,
    confidence_bins,
    estimated_yes_share,
    lowest_threshold,
    stratified_sample,
    wilson_interval,
)


def test_wilson_interval_of_a_textbook_case():
    """Newcombe (1998): 81 of 263, 95 %: 0.2553 to 0.3662."""
    low, high = wilson_interval(81, 263)
    assert (round(low, 4), round(high, 4)) == (0.2553, 0.3662)
    assert wilson_interval(0, 0) is None
    assert wilson_interval(5, 5)[1] == 1.0
    assert wilson_interval(0, 5)[0] == 0.0


def test_bins_have_equal_counts_and_cover_the_range():
    bins = confidence_bins([0.9, 0.1, 0.5, 0.3, 0.7, 0.2, 0.8, 0.4, 0.6, 1.0], 5)
    assert [(b.low, b.high, b.population) for b in bins] == [
        (0.1, 0.2, 2), (0.3, 0.4, 2), (0.5, 0.6, 2), (0.7, 0.8, 2), (0.9, 1.0, 2),
    ]  # fmt: skip
    assert len(confidence_bins([0.5, 0.6], 5)) == 2


def test_the_draw_takes_equal_numbers_per_bin_and_passes_a_small_bins_surplus_on():
    confidences = list(np.linspace(0, 1, 100))
    bins = [Bin(0, 0.0, confidences[2], 3), Bin(1, confidences[3], 1.0, 97)]
    drawn = stratified_sample(confidences, bins, 20, np.random.default_rng(1))
    assert sorted(b for _, b in drawn) == [0] * 3 + [1] * 17
    assert len({index for index, _ in drawn}) == 20
    for index, bin_index in drawn:
        assert bins[bin_index].low <= confidences[index] <= bins[bin_index].high


def test_the_estimate_weighs_pairs_by_their_bins_population():
    bins = [Bin(0, 0.0, 0.5, 900), Bin(1, 0.5, 1.0, 100)]
    pairs = [RatedPair(0.2, 0, 0.0), RatedPair(0.4, 0, 1.0), RatedPair(0.8, 1, 1.0)]
    # bin 0: two pairs standing for 450 each, half yes; bin 1: one pair standing for 100.
    assert estimated_yes_share(pairs, bins, 0.0) == pytest.approx((450 + 100) / 1000)
    assert estimated_yes_share(pairs, bins, 0.3) == pytest.approx(1.0)
    assert estimated_yes_share(pairs, bins, 0.9) is None
    assert lowest_threshold(pairs, bins, 0.9) == (0.4, 1.0)
    assert lowest_threshold(pairs, bins, 0.5) == (0.2, pytest.approx(0.55))
    assert lowest_threshold([RatedPair(0.2, 0, 0.0)], bins, 0.5) is None
