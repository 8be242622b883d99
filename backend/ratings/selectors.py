"""Reads of rating studies: a rater's next pair (text only), and the lead's results.

Results count ratings, not pairs, in the per-bin shares (each rating is one judgement); the
corpus estimate weighs pairs (each pair's share of yes among its raters) by the bin
population they stand for (`workers.align.annotation.rating`).
"""

from collections import Counter, defaultdict
from typing import TypedDict

import numpy as np
from django.contrib.auth.models import User
from django.db.models import Count, Q, QuerySet

from backend.core.errors import NotFound
from backend.documents.models import ReportSegment, TranscriptTurn
from backend.ratings.models import Answer, Origin, Rating, RatingAssignment, RatingStudy
from workers.align.annotation.agreement import MISSING, krippendorff_alpha
from workers.align.annotation.rating import (
    ANSWERS,
    Bin,
    RatedPair,
    estimated_yes_share,
    lowest_threshold,
    wilson_interval,
)

CONTEXT_TURNS = 2
"""Turns shown dimmed on each side of the pair's, so a rater sees what was left out."""
CONTROL_FLAG_BELOW = 0.7
"""A rater who says yes to fewer gold pairs than this is flagged: gold is right by definition."""


class PairSegment(TypedDict):
    position: int
    speaker: str
    text: str


class PairTurn(TypedDict):
    position: int
    speaker: str
    text: str
    in_pair: bool


class RatingPair(TypedDict):
    """A pair as its rater reads it: the segment and the pair's turns with their neighbours."""

    assignment: int
    document_name: str
    segment: PairSegment
    turns: list[PairTurn]


class RaterNext(TypedDict):
    study: int
    name: str
    done: int
    total: int
    can_undo: bool
    pair: RatingPair | None


class StudyEstimate(TypedDict):
    study: int
    name: str
    min_confidence: float
    estimated_yes_share: float | None
    rated_pairs: int


class ControlAnswers(TypedDict):
    """A rater's answers on the gold pairs mixed in: flagged below `CONTROL_FLAG_BELOW`."""

    rater: str
    ratings: int
    yes_share: float
    flagged: bool


class CurvePoint(TypedDict):
    min_confidence: float
    estimated_yes_share: float | None


class AnswerShare(TypedDict):
    count: int
    share: float | None
    interval: tuple[float, float] | None


class Shares(TypedDict):
    """Keyed by `workers.align.rating.ANSWERS`."""

    ratings: int
    no: AnswerShare
    partly: AnswerShare
    yes: AnswerShare


class RatingBin(Shares):
    index: int
    low: float
    high: float
    population: int
    items: int


class StudyResults(TypedDict):
    """A study's figures. Each of `bins` holds the bin's bounds and counts, its `ratings`,
    and per answer its count, share and Wilson interval."""

    study: int
    ratings: int
    assignments: int
    bins: list[RatingBin]
    alpha: float | None
    controls: list[ControlAnswers]
    target_yes_share: float
    recommended_min_confidence: float | None
    recommended_yes_share: float | None
    recommended_rated_pairs: int
    curve: list[CurvePoint]


def study_list(*, project_id: int, user: User | None, sees_all: bool) -> QuerySet[RatingStudy]:
    studies = RatingStudy.objects.filter(project_id=project_id)
    if not sees_all:
        studies = studies.filter(items__assignments__rater=user).distinct()
    return studies.order_by("-created_at", "-id").annotate(
        item_count=Count("items", distinct=True),
        assignment_count=Count("items__assignments", distinct=True),
        rating_count=Count("items__assignments__rating", distinct=True),
    )


def rater_study_list(*, project_id: int, user: User) -> QuerySet[RatingStudy]:
    """The studies `user` rates in, each with their own progress: `my_assignments` (the
    pairs given to them) and `my_ratings` (those they rated), for the rater's home page."""
    mine = Q(items__assignments__rater=user)
    return (
        RatingStudy.objects.filter(project_id=project_id)
        .annotate(
            my_assignments=Count("items__assignments", filter=mine, distinct=True),
            my_ratings=Count("items__assignments__rating", filter=mine, distinct=True),
        )
        .filter(my_assignments__gt=0)
        .order_by("-created_at", "-id")
    )


def study_get(
    *, project_id: int, study_id: int, user: User | None = None, sees_all: bool = True
) -> RatingStudy:
    study = (
        study_list(project_id=project_id, user=user, sees_all=sees_all).filter(pk=study_id).first()
    )
    if study is None:
        raise NotFound(f"Project {project_id} has no rating study {study_id} you can see.")
    return study


def _own(study: RatingStudy, rater: User) -> QuerySet[RatingAssignment]:
    return RatingAssignment.objects.filter(item__study=study, rater=rater)


def rater_next(*, study: RatingStudy, rater: User) -> RaterNext:
    """The rater's progress and the first of their assignments (in their order) not yet
    rated, with the pair's text and its neighbouring turns; no confidence, no origin."""
    own = _own(study, rater)
    total = own.count()
    if not total:
        raise NotFound(f"You have no assignments in rating study {study.pk}.")
    done = own.filter(rating__isnull=False).count()
    assignment = (
        own.filter(rating__isnull=True).order_by("order").select_related("item__document").first()
    )
    return {
        "study": study.pk,
        "name": study.name,
        "done": done,
        "total": total,
        "can_undo": done > 0,
        "pair": _pair(assignment) if assignment is not None else None,
    }


def _pair(assignment: RatingAssignment) -> RatingPair:
    item = assignment.item
    positions = item.turn_positions
    low, high = min(positions) - CONTEXT_TURNS, max(positions) + CONTEXT_TURNS
    turns = TranscriptTurn.objects.filter(
        document_id=item.document_id, position__gte=low, position__lte=high
    ).order_by("position")
    segment = ReportSegment.objects.get(
        document_id=item.document_id, position=item.segment_position
    )
    return {
        "assignment": assignment.pk,
        "document_name": item.document.name,
        "segment": {"position": segment.position, "speaker": segment.speaker, "text": segment.text},
        "turns": [
            {
                "position": turn.position,
                "speaker": turn.speaker,
                "text": turn.text,
                "in_pair": turn.position in positions,
            }
            for turn in turns
        ],
    }


def _bins(study: RatingStudy) -> list[Bin]:
    return [Bin(**row) for row in study.bins]


def _ratings(study: RatingStudy) -> list[tuple[int, int, str, str, float | None, int | None]]:
    """(item, rater, answer, origin, confidence, bin) per rating."""
    return list(
        Rating.objects.filter(assignment__item__study=study)
        .order_by("assignment__item_id", "assignment__rater_id")
        .values_list(
            "assignment__item_id",
            "assignment__rater_id",
            "answer",
            "assignment__item__origin",
            "assignment__item__confidence",
            "assignment__item__bin_index",
        )
    )


def rated_pairs(study: RatingStudy) -> list[RatedPair]:
    answers: dict[int, list[str]] = defaultdict(list)
    where: dict[int, tuple[float, int]] = {}
    for item, _, answer, origin, confidence, bin_index in _ratings(study):
        if origin == Origin.AUTOMATIC and confidence is not None and bin_index is not None:
            answers[item].append(answer)
            where[item] = (confidence, bin_index)
    return [
        RatedPair(
            confidence=where[item][0],
            bin_index=where[item][1],
            yes_share=given.count(Answer.YES) / len(given),
        )
        for item, given in answers.items()
    ]


def _shares(per_pair: dict[int, Counter[str]]) -> Shares:
    """Each answer's count of ratings, and its share as the mean over the bin's rated pairs
    of the share of their raters who gave it. The pairs are what was sampled, so the Wilson
    interval takes them as the trials (the pairs' shares summed as successes): two raters of
    one pair are not two independent draws from the corpus."""
    pairs = len(per_pair)
    answers: Counter[str] = sum(per_pair.values(), Counter())

    def share(answer: str) -> AnswerShare:
        successes = sum(counts[answer] / counts.total() for counts in per_pair.values())
        return {
            "count": answers[answer],
            "share": successes / pairs if pairs else None,
            "interval": wilson_interval(successes, pairs),
        }

    return {
        "ratings": answers.total(),
        "no": share(Answer.NO),
        "partly": share(Answer.PARTLY),
        "yes": share(Answer.YES),
    }


def study_results(*, study: RatingStudy) -> StudyResults:
    ratings = _ratings(study)
    per_bin: dict[int, dict[int, Counter[str]]] = defaultdict(lambda: defaultdict(Counter))
    items_per_bin: Counter[int | None] = Counter(
        study.items.filter(origin=Origin.AUTOMATIC).values_list("bin_index", flat=True)
    )
    controls: dict[int, Counter[str]] = defaultdict(Counter)
    for item, rater, answer, origin, _, bin_index in ratings:
        if origin == Origin.AUTOMATIC and bin_index is not None:
            per_bin[bin_index][item][answer] += 1
        elif origin == Origin.CONTROL:
            controls[rater][answer] += 1
    pairs = rated_pairs(study)
    bins = _bins(study)
    threshold = lowest_threshold(pairs, bins, study.target_yes_share)
    usernames = dict(
        study.items.values_list("assignments__rater_id", "assignments__rater__username")
    )
    return {
        "study": study.pk,
        "ratings": len(ratings),
        "assignments": RatingAssignment.objects.filter(item__study=study).count(),
        "bins": [
            {
                "index": b.index,
                "low": b.low,
                "high": b.high,
                "population": b.population,
                "items": items_per_bin[b.index],
                **_shares(per_bin[b.index]),
            }
            for b in bins
        ],
        "alpha": _ordinal_alpha(ratings),
        "controls": [
            {
                "rater": usernames.get(rater, str(rater)),
                "ratings": counts.total(),
                "yes_share": counts[Answer.YES] / counts.total(),
                "flagged": counts[Answer.YES] / counts.total() < CONTROL_FLAG_BELOW,
            }
            for rater, counts in sorted(controls.items())
        ],
        "target_yes_share": study.target_yes_share,
        "recommended_min_confidence": threshold[0] if threshold else None,
        "recommended_yes_share": threshold[1] if threshold else None,
        "recommended_rated_pairs": (
            sum(pair.confidence >= threshold[0] for pair in pairs) if threshold else 0
        ),
        "curve": [
            {
                "min_confidence": b.low,
                "estimated_yes_share": estimated_yes_share(pairs, bins, b.low),
            }
            for b in bins
        ],
    }


def _ordinal_alpha(
    ratings: list[tuple[int, int, str, str, float | None, int | None]],
) -> float | None:
    """Over every rated pair, controls included: no < partly < yes."""
    items = sorted({row[0] for row in ratings})
    raters = sorted({row[1] for row in ratings})
    if not items or len(raters) < 2:
        return None
    column = {item: i for i, item in enumerate(items)}
    row_of = {rater: i for i, rater in enumerate(raters)}
    reliability = np.full((len(raters), len(items)), MISSING, dtype=np.int64)
    for item, rater, answer, *_ in ratings:
        reliability[row_of[rater], column[item]] = ANSWERS.index(answer)
    return krippendorff_alpha(reliability, level="ordinal")


def latest_rated_study(*, project_id: int) -> RatingStudy | None:
    """The project's latest study in which some automatic pair has a rating: the one exports
    quote."""
    return (
        RatingStudy.objects.filter(
            Q(items__origin=Origin.AUTOMATIC) & Q(items__assignments__rating__isnull=False),
            project_id=project_id,
        )
        .order_by("-created_at", "-id")
        .first()
    )


def study_estimate(*, study: RatingStudy, min_confidence: float) -> StudyEstimate:
    """What a study says of an export at `min_confidence`."""
    pairs = rated_pairs(study)
    return {
        "study": study.pk,
        "name": study.name,
        "min_confidence": min_confidence,
        "estimated_yes_share": estimated_yes_share(pairs, _bins(study), min_confidence),
        "rated_pairs": len(pairs),
    }
