"""The gold rule on its own: which submissions count and what their verdict is."""

from backend.curation.rule import (
    CompletedAdjudication,
    GoldRule,
    GoldState,
    Submission,
    decide_gold,
)

A, B, LEAD = 1, 2, 9


def submission(annotation: int, annotator: int, *labels: int) -> Submission:
    return Submission(annotation, annotator, tuple(labels))


def test_the_only_assignees_submission_is_gold():
    decision = decide_gold(
        assignee_ids=[A], submissions=[submission(10, A, 0, 1)], adjudication=None
    )

    assert (decision.state, decision.rule) == (GoldState.GOLD, GoldRule.SINGLE_ANNOTATOR)
    assert (decision.labels, decision.annotation_id) == ((0, 1), 10)


def test_a_non_assignees_later_submission_does_not_count():
    decision = decide_gold(
        assignee_ids=[A],
        submissions=[submission(10, A, 0, 1), submission(11, LEAD, 1, 1)],
        adjudication=None,
    )

    assert (decision.rule, decision.labels) == (GoldRule.SINGLE_ANNOTATOR, (0, 1))
    assert [counted.annotator_id for counted in decision.counted] == [A]


def test_no_gold_while_an_assignee_has_not_submitted():
    decision = decide_gold(
        assignee_ids=[A, B], submissions=[submission(10, A, 0, 1)], adjudication=None
    )

    assert decision.state == GoldState.UNSUBMITTED
    assert decision.waiting_for == (B,)
    assert decision.labels is None


def test_identical_submissions_agree_on_the_earliest():
    decision = decide_gold(
        assignee_ids=[A, B],
        submissions=[submission(10, A, 0, 1), submission(11, B, 0, 1)],
        adjudication=None,
    )

    assert (decision.rule, decision.annotation_id) == (GoldRule.AGREED, 10)


def test_disagreeing_submissions_need_adjudication_whatever_their_order():
    for order in ([0, 1], [1, 0]):
        both = [submission(10, A, 0, 1), submission(11, B, 1, 1)]
        decision = decide_gold(
            assignee_ids=[A, B], submissions=[both[i] for i in order], adjudication=None
        )

        assert decision.state == GoldState.NEEDS_ADJUDICATION
        assert decision.labels is None


def test_a_completed_adjudication_is_gold_even_before_every_submission():
    decision = decide_gold(
        assignee_ids=[A, B],
        submissions=[submission(10, A, 0, 1)],
        adjudication=CompletedAdjudication(5, (1, 1)),
    )

    assert (decision.rule, decision.labels, decision.adjudication_id) == (
        GoldRule.ADJUDICATED,
        (1, 1),
        5,
    )


def test_without_assignees_every_submission_counts():
    alone = decide_gold(assignee_ids=[], submissions=[submission(10, LEAD, 0)], adjudication=None)
    nothing = decide_gold(assignee_ids=[], submissions=[], adjudication=None)

    assert alone.rule == GoldRule.SINGLE_ANNOTATOR
    assert (nothing.state, nothing.waiting_for) == (GoldState.UNSUBMITTED, ())
