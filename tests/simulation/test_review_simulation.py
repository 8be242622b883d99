"""The simulated annotator in review mode: it fixes the shown turns, follows its changes to
their neighbours, reads on where the mode shows more, keeps the others as pre-aligned, and what
it submits is a save the editor accepts; the iteration's figures count that work and what it
left wrong, and `auto` plans for the runs it follows."""

import numpy as np
import pytest
from django.core.management import CommandError, call_command
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from backend.alignments.services.annotations import check_order
from backend.simulation.annotator import (
    SECONDS_PER_TURN_CHANGED,
    SECONDS_PER_TURN_READ,
    seconds_spent,
)
from backend.simulation.review import (
    AUTO,
    PreAligned,
    ReviewTally,
    iteration_threshold,
    least_review,
    review_under,
    reviewed_labels,
    spot_checked_labels,
)
from workers.align.annotation.error_runs import expected_wrong_after_following
from workers.align.annotation.review import (
    CURVE_THRESHOLDS,
    DEFAULT_RESIDUAL_ERROR_TARGET,
    ReviewedDocument,
    residual_error_after_review,
    threshold_reached,
    turns_to_review,
)
from workers.align.annotation.spot_check import SpotCheckedDocument, residual_error_spot_checked
from workers.align.document_model import UNALIGNED


def ordered_labels(draw, n_turns: int) -> list[int]:
    steps = draw(st.lists(st.integers(0, 2), min_size=n_turns, max_size=n_turns))
    gaps = draw(st.lists(st.booleans(), min_size=n_turns, max_size=n_turns))
    labels = np.cumsum(steps).tolist()
    return [UNALIGNED if gap else label for label, gap in zip(labels, gaps, strict=True)]


@st.composite
def documents(draw):
    n_turns = draw(st.integers(0, 30))
    pre = ordered_labels(draw, n_turns)
    gold = ordered_labels(draw, n_turns)
    confidences = draw(st.lists(st.floats(0, 1), min_size=n_turns, max_size=n_turns))
    return PreAligned(np.array(pre, dtype=np.int64), np.array(confidences)), gold


@settings(max_examples=300, deadline=None)
@given(document=documents(), threshold=st.floats(0, 1.01))
def test_review_fixes_the_shown_turns_keeps_the_rest_and_saves_in_report_order(document, threshold):
    pre_aligned, gold = document

    submitted, read = reviewed_labels(pre_aligned, gold, threshold)

    check_order(submitted)
    shown = turns_to_review(pre_aligned.confidences, threshold)
    assert (read >= shown).all()
    for turn, label in enumerate(submitted):
        assert label == (gold[turn] if read[turn] else pre_aligned.labels[turn])


def test_a_turn_fixed_against_a_hidden_one_out_of_order_is_read_and_fixed_too():
    pre_aligned = PreAligned(np.array([0, 1, 1, 3]), np.array([0.2, 0.99, 0.99, 0.99]))
    gold = [2, 2, 3, 3]

    submitted, read = reviewed_labels(pre_aligned, gold, 0.5, follow_changes=False)

    assert submitted == [2, 2, 3, 3]
    assert read.tolist() == [True, True, True, False]


def test_once_the_shown_turns_prove_wrong_the_annotator_reads_the_turns_the_mode_adds():
    """Twenty turns, the five under 0.8 shown and all wrong: the review mode shows more, as
    the editor would, and the annotator reads and fixes them; without the top-up it stops."""
    confidences = np.linspace(0.5, 0.99, 20)
    pre_aligned = PreAligned(np.arange(20), confidences)
    gold = [turn if turn >= 10 else UNALIGNED for turn in range(20)]

    plain, plain_read = reviewed_labels(pre_aligned, gold, 0.7, follow_changes=False)
    topped_up, read = reviewed_labels(pre_aligned, gold, 0.7, top_up=True, follow_changes=False)

    shown = turns_to_review(confidences, 0.7)
    assert plain_read.tolist() == shown.tolist()
    assert read.sum() > shown.sum()
    assert (read >= shown).all()
    assert sum(a != b for a, b in zip(topped_up, gold, strict=True)) < sum(
        a != b for a, b in zip(plain, gold, strict=True)
    )
    assert topped_up == [gold[t] if read[t] else int(pre_aligned.labels[t]) for t in range(20)]


def four_turns_reviewed_under_a_half(trusted: np.ndarray | None = None):
    """Turn 1 is shown (0.3); turn 2 across its boundary (0.95) and turn 3 (0.6) are not, and
    turn 3 stays wrong. The annotator reads the shown turns only."""
    pre_aligned = PreAligned(np.array([0, 0, 1, 1]), np.array([0.9, 0.3, 0.95, 0.6]))
    reference = [0, 1, 1, 2]
    tally = ReviewTally(threshold=0.5, follow_changes=False)
    gold, read = reviewed_labels(pre_aligned, reference, 0.5, follow_changes=False)
    tally.note_read("m", read)
    tally.add_document("m", pre_aligned, gold, reference, trusted)
    return tally, gold


def test_the_figures_count_reviewed_changed_and_wrong_turns_over_all_turns():
    tally, gold = four_turns_reviewed_under_a_half()

    assert gold == [0, 1, 1, 1]
    figures = tally.as_dict()
    assert figures["reviewed_share"] == pytest.approx(1 / 4)
    assert figures["changed_share"] == pytest.approx(1 / 4)
    assert figures["residual_error"] == pytest.approx(1 / 4)
    assert figures["estimated_residual_error"] == pytest.approx((0.1 + 0.05 + 0.4) / 4)
    assert figures["pre_alignment_accuracy"] == pytest.approx(2 / 4)
    assert figures["review_curve"][0]["review_threshold"] == 0.5
    assert {point["review_threshold"] for point in figures["review_curve"]} >= set(CURVE_THRESHOLDS)
    assert sum(point["auto"] for point in figures["review_curve"]) == 1
    assert figures["least_review"] == {
        "review_threshold": 0.9,
        "reviewed_share": 2 / 4,
        "residual_error_corrected": 0.0,
        "meets_bar": False,
    }, "no wrong turn may stay in 4 for at most 3 %: turn 3 (0.6) must be read too"


def test_on_the_corrected_reference_only_the_trusted_turns_count():
    tally, _ = four_turns_reviewed_under_a_half(trusted=np.array([True, True, True, False]))

    figures = tally.figures()
    assert figures["residual_error"] == pytest.approx(1 / 4), "every turn, as before"
    assert figures["residual_error_corrected"] == 0.0, "turn 3, left wrong, is not trusted"
    assert figures["estimated_residual_error_corrected"] == pytest.approx((0.1 + 0.05) / 3)


def test_the_estimate_after_review_reads_what_the_annotator_kept_of_the_turns_it_read():
    tally, _ = four_turns_reviewed_under_a_half(trusted=np.array([True, True, False, True]))

    figures = tally.figures()
    read = np.array([False, True, False, False])
    kept = np.zeros(4, dtype=bool)
    confidences = np.array([0.9, 0.3, 0.95, 0.6])
    assert figures["estimated_residual_error_after_review"] == pytest.approx(
        residual_error_after_review([ReviewedDocument(confidences, read, read, kept)])
    )
    trusted = np.array([True, True, False, True])
    t = trusted
    assert figures["estimated_residual_error_after_review_corrected"] == pytest.approx(
        residual_error_after_review([ReviewedDocument(confidences[t], read[t], read[t], kept[t])])
    )
    assert figures["estimated_residual_error_after_review"] > figures["estimated_residual_error"]


def test_without_review_every_turn_counts_as_read_and_nothing_as_expected_wrong():
    pre_aligned = PreAligned(np.array([0, 1, 1]), np.array([0.2, 0.4, 0.9]))
    tally = ReviewTally(threshold=None)

    tally.add_document("m", pre_aligned, [0, 1, 2], [0, 1, 2])

    figures = tally.figures()
    assert figures["reviewed_share"] == 1.0
    assert figures["estimated_residual_error"] == 0.0
    assert figures["estimated_residual_error_after_review"] == 0.0
    assert figures["residual_error"] == 0.0


@settings(max_examples=100, deadline=None)
@given(batch=st.lists(documents(), min_size=1, max_size=4))
def test_auto_reviews_the_batch_down_to_the_target_it_estimates(batch):
    assume(any(gold for _, gold in batch))
    threshold = iteration_threshold(AUTO, [pre_aligned for pre_aligned, _ in batch])

    figures = review_under([(p, gold, np.ones(len(gold), bool)) for p, gold in batch], threshold)

    assert figures["estimated_residual_error"] <= DEFAULT_RESIDUAL_ERROR_TARGET + 1e-9


def four_lone_errors() -> tuple[PreAligned, list[int], np.ndarray]:
    """39 turns of segment 0, four of them pre-aligned as irrelevant, far apart and the least
    confident: at most 3 % wrong (1 turn) needs the three least confident fixed."""
    wrong = [4, 14, 24, 34]
    labels = np.zeros(39, dtype=np.int64)
    labels[wrong] = UNALIGNED
    confidences = 0.5 + 0.01 * np.arange(39)
    confidences[wrong] = [0.10, 0.11, 0.12, 0.13]
    return PreAligned(labels, confidences), [0] * 39, np.ones(39, dtype=bool)


@pytest.mark.parametrize(("follow_changes", "turns_read"), [(False, 3), (True, 3 + 3 * 2)])
def test_the_least_review_fixes_just_enough_of_the_least_confident_turns(
    follow_changes, turns_read
):
    least = least_review([four_lone_errors()], follow_changes=follow_changes)

    assert least["reviewed_share"] == pytest.approx(turns_read / 39)
    assert least["residual_error_corrected"] == pytest.approx(1 / 39)
    assert least["review_threshold"] == pytest.approx(0.13)
    assert least["meets_bar"]


def test_the_least_review_counts_only_the_trusted_turns_against_the_bar():
    pre_aligned, reference, _ = four_lone_errors()
    trusted = np.arange(39) < 20

    least = least_review([(pre_aligned, reference, trusted)], follow_changes=False)

    assert least["residual_error_corrected"] == 0.0
    assert least["reviewed_share"] == pytest.approx(2 / 39)


def test_in_review_mode_the_simulated_effort_reads_only_the_turns_read():
    reading_all = seconds_spent([0, 1, 2, 2], [0, 1, 3, 3])

    reading_two = seconds_spent([0, 1, 2, 2], [0, 1, 3, 3], turns_read=2)

    assert reading_all - reading_two == 2 * SECONDS_PER_TURN_READ
    assert reading_two == 2 * SECONDS_PER_TURN_READ + 2 * SECONDS_PER_TURN_CHANGED


def test_with_the_top_up_the_tally_learns_from_the_turns_shown_by_the_end():
    confidences = np.linspace(0.5, 0.99, 20)
    pre_aligned = PreAligned(np.arange(20), confidences)
    reference = [turn if turn >= 10 else UNALIGNED for turn in range(20)]
    tally = ReviewTally(threshold=0.7, top_up=True, follow_changes=False)
    gold, read = reviewed_labels(pre_aligned, reference, 0.7, top_up=True, follow_changes=False)
    tally.note_read("m", read)
    tally.add_document("m", pre_aligned, gold, reference)

    kept = read & (np.asarray(gold) == pre_aligned.labels)
    shown = turns_to_review(confidences, threshold_reached(confidences, read, kept, 0.7))
    assert shown.sum() > turns_to_review(confidences, 0.7).sum()
    figures = tally.figures()
    assert figures["reviewed_share"] == pytest.approx(read.mean())
    assert figures["estimated_residual_error"] == pytest.approx(
        (1 - confidences[~turns_to_review(confidences, 0.7)]).sum() / 20
    ), "the plan is the plan's"
    assert figures["estimated_residual_error_after_review"] == pytest.approx(
        residual_error_after_review([ReviewedDocument(confidences, shown, read, kept)])
    )


@pytest.mark.parametrize("flag", ["--review-top-up", "--review-shown-only"])
def test_the_review_policies_are_asked_for_with_a_review_threshold_only(flag):
    with pytest.raises(CommandError, match=f"{flag} needs --review-threshold"):
        call_command("simulate_bootstrap", flag)


def test_following_changes_reads_a_run_of_wrong_turns_to_its_end():
    """Turns 5 to 9 are one segment too early; only turn 7 is uncertain enough to be shown.
    Following changes reads 6 and 8, then 5 and 9, then 4 and 10, which are right."""
    labels = np.array([0, 0, 1, 1, 2, 2, 2, 2, 2, 2, 4, 4])
    gold = [0, 0, 1, 1, 2, 3, 3, 3, 3, 3, 4, 4]
    confidences = np.full(12, 0.99)
    confidences[7] = 0.3
    pre_aligned = PreAligned(labels, confidences)

    plain, plain_read = reviewed_labels(pre_aligned, gold, 0.5, follow_changes=False)
    followed, read = reviewed_labels(pre_aligned, gold, 0.5)

    assert np.flatnonzero(plain_read).tolist() == [7, 8, 9]
    assert plain != gold
    assert followed == gold
    assert np.flatnonzero(read).tolist() == list(range(4, 11))


def test_auto_counts_the_runs_the_annotator_follows_so_it_shows_fewer_turns():
    """Forty turns, confidences from 0.7 to 0.95: read one by one, a 2 % residual error needs
    most turns shown; followed through runs of correlated errors, fewer."""
    confidences = np.random.default_rng(0).permutation(np.linspace(0.7, 0.95, 40))
    runs = PreAligned(np.arange(40), confidences, run_correlation=0.8)

    followed = iteration_threshold(0.9, [runs]), iteration_threshold(AUTO, [runs])
    shown_only = iteration_threshold(AUTO, [runs], follow_changes=False)

    assert followed[0] == 0.9, "a threshold given is kept"
    assert (
        turns_to_review(confidences, followed[1]).sum()
        < turns_to_review(confidences, shown_only).sum()
    )
    tally = ReviewTally(threshold=followed[1])
    gold, read = reviewed_labels(runs, list(range(40)), followed[1])
    tally.note_read("m", read)
    tally.add_document("m", runs, gold, list(range(40)))
    assert tally.figures()["estimated_residual_error"] == pytest.approx(
        expected_wrong_after_following(confidences, turns_to_review(confidences, followed[1]), 0.8)
        / 40
    )


def test_a_spot_check_reads_the_checked_turns_and_follows_what_it_finds_to_the_end():
    """Turns 5 to 9 are one segment too early and all confident: the review shows nothing.
    A spot check of turn 6 finds it wrong; following it fixes the run and reads 4 and 10."""
    labels = np.array([0, 0, 1, 1, 2, 2, 2, 2, 2, 2, 4, 4])
    gold = [0, 0, 1, 1, 2, 3, 3, 3, 3, 3, 4, 4]
    pre_aligned = PreAligned(labels, np.full(12, 0.99))
    reviewed, read = reviewed_labels(pre_aligned, gold, 0.5)
    checked = np.zeros(12, dtype=bool)
    checked[[1, 6]] = True

    after, read_after = spot_checked_labels(pre_aligned, gold, 0.5, read, checked)

    assert reviewed == labels.tolist()
    assert not read.any()
    assert after == gold
    assert np.flatnonzero(read_after).tolist() == [1, *range(4, 11)]


def test_the_tally_weighs_the_spot_check_against_the_estimate_after_review():
    """Two runs of wrong turns among 40 confident ones; the check finds one and fixes it."""
    labels = np.arange(40) // 4
    reference = labels.copy()
    reference[10:14] = reference[10] + 1
    reference[30:32] = reference[30] + 1
    confidences = np.full(40, 0.97)
    confidences[[3, 20]] = 0.2
    pre_aligned = PreAligned(labels, confidences, run_correlation=0.5)
    tally = ReviewTally(threshold=0.5)
    reviewed, read = reviewed_labels(pre_aligned, reference.tolist(), 0.5)
    checked = np.zeros(40, dtype=bool)
    checked[[11, 25]] = True
    tally.note_spot_check("m", ~read, checked, reviewed)
    gold, read_after = spot_checked_labels(pre_aligned, reference.tolist(), 0.5, read, checked)
    tally.note_read("m", read_after)
    tally.add_document("m", pre_aligned, gold, reference.tolist())

    figures = tally.figures()
    fixed = ~read & (np.asarray(gold) != np.asarray(reviewed))
    assert np.flatnonzero(fixed).tolist() == [10, 11]
    assert figures["residual_error"] == pytest.approx(2 / 40), "the run at 30 is left"
    assert figures["spot_checked_share"] == pytest.approx(2 / 40)
    kept = read_after & (np.asarray(gold) == labels)
    shown = turns_to_review(confidences, 0.5)
    after_review = ReviewedDocument(confidences, shown, read_after, kept, 0.5)
    expected = residual_error_spot_checked(
        residual_error_after_review([after_review]) * 40,
        40,
        [SpotCheckedDocument(~read, checked, fixed, 1 - confidences)],
    )
    assert figures["estimated_residual_error_spot_checked"] == pytest.approx(expected)
    assert (
        figures["estimated_residual_error_spot_checked"]
        > figures["estimated_residual_error_after_review"]
    ), "a sample half wrong says more is left than the calibration does"


def test_a_spot_check_needs_a_review_threshold_and_a_share():
    with pytest.raises(CommandError, match="--review-spot-check needs --review-threshold"):
        call_command("simulate_bootstrap", "--review-spot-check", "0.05")
    with pytest.raises(CommandError, match=r"between 0 and 1, got 1\.5"):
        call_command(
            "simulate_bootstrap", "--review-threshold", "auto", "--review-spot-check", "1.5"
        )
