"""The simulated annotator on the corpus's real final alignments, checked against what the
editor's services accept."""

import random

import pytest

from backend.alignments.services.annotations import check_order
from backend.simulation.annotator import (
    correction_operations,
    overlooking_correction,
    reachable_gold,
)
from backend.simulation.bootstrap import SimulationError, batches_of
from workers.align.corpus import load_public_meetings, meeting_ids
from workers.align.document_model import UNALIGNED

BACKWARD_MEETINGS = ["383fa957", "398ab01c", "78ea37f9", "b7872272"]


def apply(current: list[int], operations) -> list[int]:
    labels = list(current)
    for operation in operations:
        for turn in range(operation.first_turn, operation.last_turn + 1):
            labels[turn] = UNALIGNED if operation.action == "unalign" else operation.segment
    return labels


@pytest.mark.parametrize("meeting", load_public_meetings(), ids=lambda meeting: meeting.id[:8])
def test_the_reachable_gold_keeps_the_report_order_and_every_label_it_can(meeting):
    gold = reachable_gold(meeting.reference)

    check_order(gold)
    kept = [turn for turn, label in enumerate(gold) if label != UNALIGNED]
    assert all(gold[turn] == meeting.reference[turn] for turn in kept)
    if meeting.id[:8] not in BACKWARD_MEETINGS:
        assert gold == list(meeting.reference)
    else:
        assert len(kept) < sum(label != UNALIGNED for label in meeting.reference)


def test_the_longest_ordered_subset_wins_over_a_greedy_one():
    assert reachable_gold([5, 0, 1, 2, -1, 6]) == [-1, 0, 1, 2, -1, 6]


@pytest.mark.parametrize("meeting", load_public_meetings(["199073d2", "383fa957"]))
def test_the_operations_turn_the_initial_alignment_into_the_gold(meeting):
    gold = reachable_gold(meeting.reference)

    operations = correction_operations(list(meeting.initial), gold)

    assert apply(list(meeting.initial), operations) == gold
    assert sum(op.last_turn - op.first_turn + 1 for op in operations) == sum(
        before != after for before, after in zip(meeting.initial, gold, strict=True)
    )


def test_batches_are_a_seeded_shuffle_and_refuse_what_the_corpus_cannot_fill():
    first = batches_of(meeting_ids(), [4, 6, 6, 6], seed=1)

    assert [len(batch) for batch in first] == [4, 6, 6, 6]
    assert sorted(meeting for batch in first for meeting in batch) == meeting_ids()
    assert batches_of(meeting_ids(), [4, 6, 6, 6], seed=1) == first
    assert batches_of(meeting_ids(), [4, 6, 6, 6], seed=2) != first
    with pytest.raises(SimulationError, match="need 23 meetings"):
        batches_of(meeting_ids(), [23], seed=1)


@pytest.mark.parametrize("meeting", load_public_meetings(["199073d2", "383fa957"]))
def test_an_overlooking_annotator_keeps_about_that_share_of_the_wrong_turns(meeting):
    gold = reachable_gold(meeting.reference)
    shown = list(meeting.initial)
    wrong = [turn for turn, (a, b) in enumerate(zip(shown, gold, strict=True)) if a != b]

    perfect = overlooking_correction(shown, gold, 0.0, random.Random(1))
    careless = overlooking_correction(shown, gold, 1.0, random.Random(1))
    first = overlooking_correction(shown, gold, 0.2, random.Random(1))
    second = overlooking_correction(shown, gold, 0.2, random.Random(2))

    assert perfect == gold
    assert careless == reachable_gold(shown)
    for labels in (first, second):
        check_order(labels)
        missed = sum(labels[turn] != gold[turn] for turn in wrong)
        assert 0.05 * len(wrong) < missed < 0.45 * len(wrong)
        right = [turn for turn in range(len(gold)) if turn not in set(wrong)]
        assert sum(labels[turn] != gold[turn] for turn in right) < 0.2 * len(right)
    assert first != second
    assert overlooking_correction(shown, gold, 0.2, random.Random(1)) == first


def test_overlooking_is_a_probability():
    with pytest.raises(ValueError, match="probability"):
        overlooking_correction([0], [0], 1.5, random.Random(0))
