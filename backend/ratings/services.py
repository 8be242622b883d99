"""Writes of rating studies: drawing one (sample, controls, raters, orders, all from its
recorded seed, so a study can be drawn again identically), a rater's answer, and undoing it.

Pairs are the export's own (`backend.agreement.aligned.aligned_documents` and the engine's
`candidates`), with the export's default filters at min_confidence 0: the study judges
exactly the pairs an export with automatic pairs would write.
"""

import secrets
from dataclasses import dataclass

import numpy as np
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction

from backend.agreement.aligned import aligned_documents
from backend.audit.services import record_event
from backend.core.errors import Conflict, InvalidInput, NotFound
from backend.projects.models import Membership, Project
from backend.ratings.models import (
    Origin,
    Rating,
    RatingAssignment,
    RatingItem,
    RatingStudy,
)
from workers.align.annotation.rating import confidence_bins, stratified_sample
from workers.align.pairs.options import ExportOptions
from workers.align.pairs.shape import candidates

DEFAULT_BINS = 5


@dataclass(frozen=True)
class _Pair:
    document_id: int
    segment_position: int
    turn_positions: list[int]
    confidence: float | None


def _study_pairs(project_id: int) -> tuple[list[_Pair], list[_Pair]]:
    """The automatic pairs that carry a confidence, and the gold pairs."""
    automatic, gold = [], []
    for document in aligned_documents(
        project_id=project_id, options=ExportOptions(include_automatic=True)
    ):
        for candidate in candidates(document, ExportOptions(include_automatic=True)):
            record = candidate.record
            if candidate.rejected_by is not None:
                continue
            pair = _Pair(
                record["document_id"],
                record["segment_position"],
                record["turn_positions"],
                record["confidence"],
            )
            if record["origin"] == "gold":
                gold.append(pair)
            elif pair.confidence is not None:
                automatic.append(pair)
    return automatic, gold


@transaction.atomic
def rating_study_create(
    *,
    actor: User,
    project: Project,
    name: str,
    sample_size: int,
    controls: int,
    rater_ids: list[int],
    raters_per_pair: int,
    target_yes_share: float = 0.9,
    bin_count: int = DEFAULT_BINS,
    seed: int | None = None,
) -> RatingStudy:
    raters = _raters(project, rater_ids)
    if raters_per_pair > len(raters):
        raise InvalidInput(
            f"raters_per_pair is {raters_per_pair} but only {len(raters)} raters are named.",
            field="raters_per_pair",
        )
    automatic, gold = _study_pairs(project.pk)
    if not automatic:
        raise InvalidInput(
            "The project has no automatic pairs with a confidence to rate: documents without "
            "gold need a pre-alignment.",
            field="sample_size",
        )
    if controls > len(gold):
        raise InvalidInput(
            f"controls is {controls} but the project has {len(gold)} gold pairs.",
            field="controls",
        )
    seed = secrets.randbelow(2**31) if seed is None else seed
    rng = np.random.default_rng(seed)
    confidences = [pair.confidence or 0.0 for pair in automatic]
    bins = confidence_bins(confidences, bin_count)
    study = RatingStudy.objects.create(
        project=project,
        name=name,
        seed=seed,
        sample_size=sample_size,
        controls=controls,
        raters_per_pair=raters_per_pair,
        target_yes_share=target_yes_share,
        bins=[
            {"index": b.index, "low": b.low, "high": b.high, "population": b.population}
            for b in bins
        ],
        created_by=actor,
    )
    drawn: list[tuple[_Pair, Origin, int | None]] = [
        (automatic[index], Origin.AUTOMATIC, bin_index)
        for index, bin_index in stratified_sample(confidences, bins, sample_size, rng)
    ]
    drawn += [
        (gold[int(index)], Origin.CONTROL, None)
        for index in rng.choice(len(gold), size=controls, replace=False)
    ]
    items = RatingItem.objects.bulk_create(
        RatingItem(
            study=study,
            document_id=pair.document_id,
            segment_position=pair.segment_position,
            turn_positions=pair.turn_positions,
            confidence=pair.confidence,
            origin=origin,
            bin_index=bin_index,
        )
        for pair, origin, bin_index in drawn
    )
    _assign(items, raters, raters_per_pair, rng)
    record_event(
        actor=actor,
        action="rating_study.create",
        target=study,
        project=project,
        seed=seed,
        items=len(items),
        raters=[rater.pk for rater in raters],
    )
    return study


def _raters(project: Project, rater_ids: list[int]) -> list:
    ids = list(dict.fromkeys(rater_ids))
    if not ids:
        raise InvalidInput("Name at least one rater.", field="raters")
    members = set(
        Membership.objects.filter(project=project, user_id__in=ids).values_list(
            "user_id", flat=True
        )
    )
    strangers = [i for i in ids if i not in members]
    if strangers:
        raise InvalidInput(
            f"Raters must be members of the project; {strangers} are not.", field="raters"
        )
    users = get_user_model().objects.in_bulk(ids)
    return [users[i] for i in ids]


def _assign(
    items: list[RatingItem], raters: list[User], per_pair: int, rng: np.random.Generator
) -> None:
    """Each item to `per_pair` raters taken in turn from a shuffled list, so their loads differ
    by at most one; each rater then gets their items in an order of their own."""
    rotation = [raters[int(i)] for i in rng.permutation(len(raters))]
    loads: dict[int, list[RatingItem]] = {rater.pk: [] for rater in raters}
    cursor = 0
    for item in items:
        for offset in range(per_pair):
            loads[rotation[(cursor + offset) % len(rotation)].pk].append(item)
        cursor += per_pair
    RatingAssignment.objects.bulk_create(
        RatingAssignment(item=own[int(position)], rater_id=rater_id, order=order)
        for rater_id, own in loads.items()
        for order, position in enumerate(rng.permutation(len(own)))
    )


@transaction.atomic
def rating_record(
    *, rater: User, study: RatingStudy, assignment_id: int, answer: str, note: str = ""
) -> Rating:
    assignment = (
        RatingAssignment.objects.select_for_update()
        .filter(pk=assignment_id, rater=rater, item__study=study)
        .first()
    )
    if assignment is None:
        raise NotFound(f"You have no assignment {assignment_id} in study {study.pk}.")
    if Rating.objects.filter(assignment=assignment).exists():
        raise Conflict(
            f"Assignment {assignment_id} is already rated; undo it to rate it again.",
            field="assignment",
        )
    rating = Rating.objects.create(assignment=assignment, answer=answer, note=note)
    record_event(
        actor=rater, action="rating.record", target=rating, project=study.project, answer=answer
    )
    return rating


@transaction.atomic
def rating_undo_last(*, rater: User, study: RatingStudy) -> RatingAssignment:
    """Takes back the rater's latest rating in the study; its assignment comes next again."""
    rating = (
        Rating.objects.select_for_update()
        .filter(assignment__rater=rater, assignment__item__study=study)
        .order_by("-created_at", "-id")
        .select_related("assignment")
        .first()
    )
    if rating is None:
        raise Conflict("You have no rating to undo in this study.")
    assignment = rating.assignment
    record_event(
        actor=rater,
        action="rating.undo",
        target=assignment,
        project=study.project,
        answer=rating.answer,
    )
    rating.delete()
    return assignment
