"""The gold rule: which labels are a document's gold, decided from what is stored.

1. A completed adjudication is the gold (`adjudicated`).
2. Otherwise the document's assignees' submissions count (every submission, when the document
   has no assignees, as for imported gold). While an assignee has not submitted, there is no
   gold yet (`unsubmitted`): a document assigned to two annotators is not decided by whoever
   submits first.
3. One counted submission is the gold (`single_annotator`); several identical ones are
   (`agreed`, resting on the earliest).
4. Several that disagree have no gold until someone adjudicates (`needs_adjudication`).

A member who is not an assignee (a lead looking at an annotator's document) never adds a
counted submission, so their edit never becomes gold silently.

Pure (no database; the choices it names are the models'): the services store its verdict,
and the data migration replays it on historical rows.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field

from backend.curation.models import GoldRule, GoldState


@dataclass(frozen=True)
class Submission:
    """A submitted annotation, in submission order when handed to `decide_gold`."""

    annotation_id: int
    annotator_id: int
    labels: tuple[int, ...]
    accepted_without_review: tuple[bool, ...] = ()
    """Per turn: accepted unread in the review mode; empty when every turn was read."""


@dataclass(frozen=True)
class CompletedAdjudication:
    adjudication_id: int
    labels: tuple[int, ...]


@dataclass(frozen=True)
class GoldDecision:
    state: GoldState
    rule: GoldRule | None = None
    labels: tuple[int, ...] | None = None
    annotation_id: int | None = None
    adjudication_id: int | None = None
    counted: tuple[Submission, ...] = ()
    waiting_for: tuple[int, ...] = field(default=())
    """Assignees (user ids) whose submission is still missing."""

    @property
    def is_gold(self) -> bool:
        return self.state == GoldState.GOLD


def decide_gold(
    *,
    assignee_ids: Sequence[int],
    submissions: Sequence[Submission],
    adjudication: CompletedAdjudication | None,
) -> GoldDecision:
    assignees = list(dict.fromkeys(assignee_ids))
    counted = tuple(
        submission
        for submission in submissions
        if not assignees or submission.annotator_id in assignees
    )
    if adjudication is not None:
        return GoldDecision(
            state=GoldState.GOLD,
            rule=GoldRule.ADJUDICATED,
            labels=adjudication.labels,
            adjudication_id=adjudication.adjudication_id,
            counted=counted,
        )
    submitted = {submission.annotator_id for submission in counted}
    waiting = tuple(user for user in assignees if user not in submitted)
    if waiting or not counted:
        return GoldDecision(state=GoldState.UNSUBMITTED, counted=counted, waiting_for=waiting)
    if len({submission.labels for submission in counted}) > 1:
        return GoldDecision(state=GoldState.NEEDS_ADJUDICATION, counted=counted)
    first = counted[0]
    return GoldDecision(
        state=GoldState.GOLD,
        rule=GoldRule.SINGLE_ANNOTATOR if len(counted) == 1 else GoldRule.AGREED,
        labels=first.labels,
        annotation_id=first.annotation_id,
        counted=counted,
    )


def accepted_without_review(decision: GoldDecision) -> list[bool]:
    """Per turn of the gold, whether no counted annotator read it: the submission's own flags
    for one annotator's gold, the turns every agreeing annotator accepted unread for an agreed
    gold; an adjudicated gold was read by its curator. Empty when every turn was read."""
    if decision.rule not in (GoldRule.SINGLE_ANNOTATOR, GoldRule.AGREED) or not decision.counted:
        return []
    flags = [submission.accepted_without_review for submission in decision.counted]
    if not all(flags):
        return []
    unread = [all(turn) for turn in zip(*flags, strict=True)]
    return unread if any(unread) else []
