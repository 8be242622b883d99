"""A tuning run's proposal against the parameters in use: the bootstrap interval of the gain
over documents against its naive definition, and what is proposed, or why nothing is."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workers.align.metrics import MeetingScores, micro_average
from workers.align.params import AlignmentParams
from workers.align.tuning import tune
from workers.align.tuning.proposal import (
    BOOTSTRAP_RESAMPLES,
    CONFIDENCE,
    gains_over,
    propose,
    resample_documents,
)


def scores(turns: int, hits: int, words: int = 0, word_hits: int = 0, wd: float = 0.1):
    return MeetingScores(
        turns=turns,
        words=words or 10 * turns,
        segment_hits=hits,
        word_hits=word_hits or 10 * hits,
        windowdiff=wd,
        pk=wd,
        unaligned_true_positives=0,
        unaligned_predicted=0,
        unaligned_reference=0,
    )


def result(offset: float, per_document: list[MeetingScores]) -> tune.SettingResult:
    params = AlignmentParams().with_changes({"abstention.min_support": offset})
    return tune.SettingResult(params, tuple((f"d{i}", s) for i, s in enumerate(per_document)))


def naive_interval(candidate, incumbent, kind, resamples, seed):
    """Each draw's documents listed one by one, both micro-averaged as the run averages them,
    and the percentiles of the differences."""
    documents = [d for d, _ in incumbent.per_meeting]
    mine, theirs = dict(candidate.per_meeting), dict(incumbent.per_meeting)
    differences = []
    for draw in resample_documents(len(documents), resamples, seed):
        drawn = [documents[i] for i in draw]
        differences.append(
            tune.objective(micro_average([mine[d] for d in drawn]), kind)
            - tune.objective(micro_average([theirs[d] for d in drawn]), kind)
        )
    whole = tune.objective(micro_average(list(mine.values())), kind) - tune.objective(
        micro_average(list(theirs.values())), kind
    )
    tail = 100 * (1 - CONFIDENCE) / 2
    low, high = np.percentile(differences, [tail, 100 - tail])
    return whole, low, high


documents_scores = st.lists(
    st.tuples(
        st.integers(1, 60),
        st.floats(0, 1),
        st.floats(0, 1),
        st.floats(0, 1),
        st.floats(0, 1),
    ),
    min_size=1,
    max_size=6,
)


@given(documents_scores, st.sampled_from(tune.OBJECTIVES), st.integers(0, 5))
@settings(max_examples=40, deadline=None)
def test_the_interval_is_the_naive_percentile_bootstrap(rows, kind, seed):
    incumbent = result(0.1, [scores(n, int(a * n), wd=w) for n, a, _, w, _ in rows])
    candidate = result(0.2, [scores(n, int(b * n), wd=v) for n, _, b, _, v in rows])
    (gain,) = gains_over([candidate], incumbent, kind, resamples=200, seed=seed)
    assert gain is not None
    whole, low, high = naive_interval(candidate, incumbent, kind, 200, seed)
    assert gain.difference == pytest.approx(whole, abs=1e-9)
    assert (gain.low, gain.high) == pytest.approx((low, high), abs=1e-9)
    assert gain.low <= gain.high


def test_a_gain_on_every_document_is_proposed_and_one_owed_to_a_document_is_not():
    incumbent = result(0.1, [scores(50, 30), scores(40, 20), scores(60, 30)])
    everywhere = result(0.2, [scores(50, 33), scores(40, 22), scores(60, 33)])
    one_document = result(0.3, [scores(50, 50), scores(40, 14), scores(60, 26)])
    ranked = [one_document, everywhere, incumbent]

    verdict = propose(ranked, 2, "turns")

    first, second, none = verdict.gains
    assert none is None
    assert first.difference > second.difference > 0  # the ranking's own order
    assert first.low < 0 < second.low
    assert (verdict.proposal, verdict.best_challenger, verdict.reason) == (1, 0, "")
    assert verdict.ties == 1
    assert verdict.gains == propose(ranked, 2, "turns").gains  # seeded: the same every time


def test_nothing_is_proposed_when_no_interval_clears_zero_and_says_why():
    incumbent = result(0.1, [scores(50, 30), scores(40, 20), scores(60, 30)])
    lucky = result(0.2, [scores(50, 45), scores(40, 15), scores(60, 28)])
    verdict = propose([lucky, incumbent], 1, "turns")
    assert verdict.gains[0].difference > 0 > verdict.gains[0].low
    assert (verdict.proposal, verdict.reason) == (None, "within_uncertainty")

    worse = result(0.2, [scores(50, 29), scores(40, 20), scores(60, 30)])
    verdict = propose([incumbent, worse], 0, "balanced")
    assert (verdict.proposal, verdict.best_challenger, verdict.reason) == (
        None,
        1,
        "incumbent_best",
    )


def test_settings_that_score_alike_on_every_document_are_one_choice():
    incumbent = result(0.1, [scores(50, 20), scores(40, 20)])
    alike = [result(offset, [scores(50, 40), scores(40, 36)]) for offset in (0.2, 0.3, 0.4)]
    other = result(0.5, [scores(50, 38), scores(40, 36)])
    verdict = propose([*alike, other, incumbent], 4, "turns")
    assert (verdict.proposal, verdict.ties) == (0, 3)

    # A tie that does not clear the incumbent is still counted as one: the lead reads that
    # 3 settings tie, not that 3 choices exist.
    verdict = propose([*alike, other, alike[0]], 4, "turns")
    assert (verdict.proposal, verdict.reason, verdict.ties) == (None, "incumbent_best", 3)


def test_without_an_incumbent_the_best_is_proposed_and_a_partial_candidate_is_never():
    first = result(0.2, [scores(50, 40), scores(40, 36)])
    dropped = result(0.3, [scores(50, 50)])
    verdict = propose([first, dropped], None, "turns")
    assert (verdict.proposal, verdict.reason, verdict.gains) == (0, "", (None, None))

    incumbent = result(0.1, [scores(50, 10), scores(40, 10)])
    verdict = propose([dropped, incumbent], 1, "turns")
    assert verdict.gains == (None, None)
    assert (verdict.proposal, verdict.reason) == (None, "incumbent_best")


def test_the_default_bootstrap_is_the_stated_one():
    assert (BOOTSTRAP_RESAMPLES, CONFIDENCE) == (2000, 0.95)
    draws = resample_documents(3, BOOTSTRAP_RESAMPLES, 0)
    assert draws.shape == (2000, 3)
    assert set(np.unique(draws)) == {0, 1, 2}
