"""The spot check's estimate of the wrong labels left, against every sample of small pools
enumerated: unbiased whatever runs the errors come in, with the variance a simple random
sample has; and how it is weighed against the model's estimate."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workers.align.annotation.spot_check import (
    LONE_DOCUMENT_MODEL_ERROR_SD,
    MODEL_ERROR_SD,
    SpotCheckedDocument,
    draw_spot_checks,
    model_error_sd,
    residual_error_spot_checked,
    sample_count_variance,
    spot_check_estimate,
    spot_check_precision,
    spot_checked_error_sd,
)


def runs_fixed_from(checked: np.ndarray, wrong: np.ndarray) -> np.ndarray:
    """What an annotator who follows each change fixes: every run of wrong turns holding a
    checked one."""
    fixed = np.zeros(len(wrong), dtype=bool)
    for turn in np.flatnonzero(checked & wrong):
        start = turn
        while start > 0 and wrong[start - 1]:
            start -= 1
        end = turn
        while end + 1 < len(wrong) and wrong[end + 1]:
            end += 1
        fixed[start : end + 1] = True
    return fixed


@st.composite
def pools(draw):
    n_turns = draw(st.integers(2, 9))
    pool = np.array(draw(st.lists(st.booleans(), min_size=n_turns, max_size=n_turns)))
    pool[draw(st.integers(0, n_turns - 1))] = True
    wrong = np.array(draw(st.lists(st.booleans(), min_size=n_turns, max_size=n_turns)))
    drawn = draw(st.integers(1, int(pool.sum())))
    return pool, wrong & pool, drawn


@settings(max_examples=200, deadline=None)
@given(case=pools())
def test_over_every_sample_the_estimate_averages_to_what_is_left(case):
    """Left after the check: the pool's wrong turns less the runs the checked ones led to.
    Averaged over every sample of the pool (each as likely under simple random sampling),
    the estimate equals the average left, although fixing whole runs takes more than the share
    of wrong turns the sample saw."""
    pool, wrong, drawn = case
    doubts = np.full(len(pool), 0.1)
    estimates, left = [], []
    for sample in itertools.combinations(np.flatnonzero(pool), drawn):
        checked = np.zeros(len(pool), dtype=bool)
        checked[list(sample)] = True
        fixed = runs_fixed_from(checked, wrong) & pool
        estimates.append(spot_check_estimate(SpotCheckedDocument(pool, checked, fixed, doubts))[0])
        left.append(int((wrong & ~fixed).sum()))

    assert np.mean(estimates) == pytest.approx(np.mean(left))


@settings(max_examples=100, deadline=None)
@given(size=st.integers(2, 9), wrong_count=st.integers(0, 9), drawn=st.integers(1, 9))
def test_the_variance_is_the_samples_over_every_sample(size, wrong_count, drawn):
    wrong_count, drawn = min(wrong_count, size), min(drawn, size)
    wrong = np.arange(size) < wrong_count
    counts = [
        size * wrong[list(sample)].mean() for sample in itertools.combinations(range(size), drawn)
    ]

    assert sample_count_variance(size, drawn, wrong_count / size) == pytest.approx(
        np.var(counts), abs=1e-9
    )


def test_a_sample_that_finds_nothing_wrong_keeps_the_models_doubt_in_its_variance():
    pool = np.ones(100, dtype=bool)
    checked = np.arange(100) < 5
    nothing = np.zeros(100, dtype=bool)

    estimate, variance = spot_check_estimate(
        SpotCheckedDocument(pool, checked, nothing, np.full(100, 0.04))
    )

    assert estimate == 0.0
    assert variance == pytest.approx(sample_count_variance(100, 5, 0.04))


def test_the_draw_takes_the_share_of_the_unread_turns_rounded_up_and_nothing_read():
    unread = np.zeros(200, dtype=bool)
    unread[50:131] = True

    checked = draw_spot_checks(unread, 0.05, np.random.default_rng(0))

    assert checked.sum() == 5
    assert not (checked & ~unread).any()
    assert (draw_spot_checks(unread, 0.05, np.random.default_rng(0)) == checked).all()
    assert draw_spot_checks(unread, 1.0, np.random.default_rng(0)).tolist() == unread.tolist()
    assert not draw_spot_checks(unread, 0.0, np.random.default_rng(0)).any()


def document(size: int, drawn: int, found: int, fixed_more: int) -> SpotCheckedDocument:
    """A document of `size` turns, all unread at the draw, `drawn` checked of which `found`
    were wrong, and `fixed_more` more fixed by following them."""
    checked = np.arange(size) < drawn
    fixed = (np.arange(size) < found) | (
        (np.arange(size) >= drawn) & (np.arange(size) < drawn + fixed_more)
    )
    return SpotCheckedDocument(np.ones(size, bool), checked, fixed, np.full(size, 0.02))


def test_with_no_spot_check_the_estimate_is_the_models():
    unchecked = SpotCheckedDocument(
        np.ones(10, bool), np.zeros(10, bool), np.zeros(10, bool), np.full(10, 0.1)
    )

    assert residual_error_spot_checked(30.0, 1000, [unchecked]) == pytest.approx(0.03)
    assert residual_error_spot_checked(30.0, 1000, []) == pytest.approx(0.03)


def test_a_spot_check_of_the_whole_pool_replaces_the_models_estimate():
    whole = document(500, 500, 12, 0)

    assert residual_error_spot_checked(40.0, 1000, [whole]) == 0.0


def test_the_estimate_lies_between_the_models_and_the_samples_by_their_variances():
    """1000 turns, 800 of them unread; the sample of 40 finds 4 wrong (10 %), and following
    them fixes 6 more: the sample says 800 x 0.1 - 10 = 70 left, the model 20."""
    checked = document(800, 40, 4, 6)
    sample, variance = spot_check_estimate(checked)
    model_variance = (LONE_DOCUMENT_MODEL_ERROR_SD * 1000) ** 2
    weight = (1 / variance) / (1 / variance + 1 / model_variance)

    combined = residual_error_spot_checked(20.0, 1000, [checked])

    assert sample == pytest.approx(70.0)
    assert 0.02 < combined < 0.07
    assert combined == pytest.approx((weight * 70.0 + (1 - weight) * 20.0) / 1000)


def test_the_estimate_is_never_below_nothing_left():
    """An unlucky sample: 1 of 5 checked wrong in a pool of 10 says 2 wrong, and following it
    fixes 4."""
    unlucky = document(10, 5, 1, 3)

    assert spot_check_estimate(unlucky)[0] == pytest.approx(-2.0)
    assert residual_error_spot_checked(0.0, 10, [unlucky]) == 0.0


@pytest.mark.parametrize("documents", [1, 4])
def test_the_precision_is_the_spread_of_the_weighed_estimate_over_random_samples(documents):
    """A pool of 700 unread turns of 1000 holds 20 wrong ones in runs of four (the batch's other
    documents, if any, were read whole); 20,000 random checks of 5 % (35 turns), each followed
    to the end of its runs, weighed against a model whose error is drawn with the batch's
    standard deviation: the weighed estimate's error spreads as the precision says, or a
    little less, since a sample that finds more wrong turns than expected leans on the model."""
    rng = np.random.default_rng(7)
    wrong = np.zeros(1000, dtype=bool)
    for start in range(300, 1000, 140):
        wrong[start : start + 4] = True
    pool = np.zeros(1000, dtype=bool)
    pool[300:] = True
    left = int(wrong.sum())
    read_whole = SpotCheckedDocument(*(np.zeros(0, bool),) * 3, np.zeros(0))
    precision = spot_check_precision(
        documents=documents, turns=1000, unread=700, expected_wrong=left, share=0.05
    )
    misses = []
    for _ in range(20_000):
        checked = draw_spot_checks(pool, 0.05, rng)
        fixed = runs_fixed_from(checked, wrong)
        model = left + rng.normal(0.0, model_error_sd(documents) * 1000)
        check = SpotCheckedDocument(pool, checked, fixed, np.full(1000, left / 700))
        batch = [check] + [read_whole] * (documents - 1)
        weighed = residual_error_spot_checked(model - fixed.sum(), 1000, batch)
        misses.append(weighed - (left - fixed.sum()) / 1000)

    assert precision.turns_drawn == 35
    assert precision.model_error_sd == model_error_sd(documents)
    assert 0.85 * precision.combined_error_sd < np.std(misses) < 1.02 * precision.combined_error_sd
    assert precision.combined_error_sd < model_error_sd(documents)


def test_a_larger_check_is_more_precise_and_one_of_the_whole_pool_leaves_no_doubt():
    sds = [
        spot_check_precision(documents=6, turns=2000, unread=1400, expected_wrong=40, share=share)
        for share in (0.03, 0.05, 0.1, 0.3, 1.0)
    ]

    combined = [precision.combined_error_sd for precision in sds]
    assert combined == sorted(combined, reverse=True)
    assert len(set(combined)) == len(combined)
    assert (sds[-1].turns_drawn, combined[-1]) == (1400, 0.0)


def test_with_nothing_unread_the_check_draws_nothing_and_leaves_the_models_precision():
    precision = spot_check_precision(
        documents=4, turns=100, unread=0, expected_wrong=0.0, share=0.05
    )

    assert (precision.turns_drawn, precision.combined_error_sd) == (0, MODEL_ERROR_SD)


@pytest.mark.parametrize(
    "arguments",
    [
        {"documents": 1, "turns": 10, "unread": 11, "expected_wrong": 1.0, "share": 0.05},
        {"documents": 1, "turns": 10, "unread": 5, "expected_wrong": 1.0, "share": 0.0},
        {"documents": 1, "turns": 10, "unread": 5, "expected_wrong": -1.0, "share": 0.05},
    ],
)
def test_a_precision_of_impossible_figures_is_refused(arguments):
    with pytest.raises(ValueError, match="need 0 <= unread"):
        spot_check_precision(**arguments)


def test_the_sd_given_with_the_estimate_is_the_models_without_a_check_and_none_for_the_whole_pool():
    unchecked = SpotCheckedDocument(
        np.ones(10, bool), np.zeros(10, bool), np.zeros(10, bool), np.full(10, 0.1)
    )

    assert spot_checked_error_sd(1000, [unchecked]) == LONE_DOCUMENT_MODEL_ERROR_SD
    assert spot_checked_error_sd(1000, [unchecked] * 4) == MODEL_ERROR_SD
    assert spot_checked_error_sd(1000, [document(500, 500, 12, 0)]) == 0.0


def test_a_check_that_finds_nothing_wrong_is_as_precise_as_its_share_promised():
    """1000 turns, 800 unread at 2 % doubt each (16 wrong expected): a 5 % check that finds
    nothing has its variance at the model's doubt, which is what the precision assumed."""
    clean = document(800, 40, 0, 0)
    promised = spot_check_precision(
        documents=1, turns=1000, unread=800, expected_wrong=16.0, share=0.05
    )

    assert promised.turns_drawn == 40
    assert spot_checked_error_sd(1000, [clean]) == pytest.approx(promised.combined_error_sd)
    assert spot_checked_error_sd(1000, [clean]) < LONE_DOCUMENT_MODEL_ERROR_SD


def test_a_check_that_finds_more_wrong_than_expected_is_less_precise():
    assert spot_checked_error_sd(1000, [document(800, 40, 6, 4)]) > spot_checked_error_sd(
        1000, [document(800, 40, 0, 0)]
    )


def test_the_models_error_shrinks_with_the_documents_whose_own_errors_cancel_down_to_a_point():
    assert model_error_sd(1) == LONE_DOCUMENT_MODEL_ERROR_SD
    assert model_error_sd(2) == pytest.approx(LONE_DOCUMENT_MODEL_ERROR_SD / 2**0.5)
    assert model_error_sd(4) == model_error_sd(6) == model_error_sd(500) == MODEL_ERROR_SD
