"""The dashboard's effort per iteration: turns changed, reviewed and accepted without review as
shares of the batch's turns and active time per 100 turns, beside the pre-alignment's
accuracy, and the sentence comparing the latest iteration with the first. Two iterations
closed through the services (no worker: no tuning), with corrections, reviewed turns and time
sent as the editor sends them; the expected figures are read back from the stored
annotations."""

import re

import pytest
from playwright.sync_api import expect

from backend.alignments.models import Annotation
from backend.alignments.services.annotations import (
    AssignmentOperation,
    annotation_apply,
    annotation_submit,
)
from backend.iterations.models import AccuracyRecord
from backend.iterations.services import iteration_close
from tests.browser.conftest import sign_in
from tests.domain import evenly, make_document
from tests.iterations.builders import annotating_iteration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TURNS, SEGMENTS = 20, 5


def corrected(team, name: str, unaligned: int, reviewed: list[int], seconds: int):
    document = make_document(
        team.project,
        name=name,
        turns=TURNS,
        segments=SEGMENTS,
        assignees=[team.annotator],
        pre_alignment=evenly(TURNS, SEGMENTS),
    )
    return document, (unaligned, reviewed, seconds)


def close_with(team, batch):
    iteration = annotating_iteration(team.project, [document for document, _ in batch])
    for document, (unaligned, reviewed, seconds) in batch:
        saved = annotation_apply(
            annotator=team.annotator,
            document=document,
            version=0,
            operations=[AssignmentOperation("unalign", TURNS - unaligned, TURNS - 1)],
            seconds_spent=seconds,
            reviewed_turns=reviewed,
        )
        annotation_submit(annotator=team.annotator, document=document, version=saved.version)
    return iteration_close(actor=team.lead, iteration=iteration, tune=False)


def figures(iteration):
    annotations = Annotation.objects.filter(document__iteration=iteration)
    turns = sum(len(annotation.changed) for annotation in annotations)
    changed = sum(sum(annotation.changed) for annotation in annotations)
    reviewed = sum(sum(annotation.reviewed) for annotation in annotations)
    spot_checked = sum(len(annotation.spot_check.get("drawn", [])) for annotation in annotations)
    accepted = sum(sum(annotation.accepted_without_review) for annotation in annotations)
    seconds = sum(annotation.seconds_spent for annotation in annotations)
    records = AccuracyRecord.objects.filter(iteration=iteration)
    accuracy = sum(record.human_turn_accuracy for record in records) / records.count()
    return (
        f"{100 * changed / turns:.1f} %",
        f"{100 * reviewed / turns:.1f} %",
        f"{100 * spot_checked / turns:.1f} %",
        f"{100 * accepted / turns:.1f} %",
        f"{seconds / 60 / (turns / 100):.1f} min",
        f"{accuracy:.1f} %",
    )


def test_the_effort_table_shows_each_iterations_shares_and_time_beside_accuracy(
    page, live_server, team
):
    first = close_with(
        team,
        [
            corrected(team, "a", 12, list(range(20)), 600),
            corrected(team, "b", 9, list(range(15)), 420),
        ],
    )
    second = close_with(team, [corrected(team, "c", 2, [0, 1, 2, 3], 60)])

    sign_in(page, live_server, "lead")
    page.goto(f"{live_server.url}/lead/projects/{team.project.pk}/dashboard")

    table = page.get_by_role("table", name="Effort per iteration")
    for iteration in (first, second):
        changed, reviewed, spot_checked, accepted, per_100, accuracy = figures(iteration)
        cells = table.get_by_role("row", name=re.compile(rf"^#{iteration.number} ")).get_by_role(
            "cell"
        )
        expect(cells.nth(2)).to_have_text(changed)
        expect(cells.nth(3)).to_have_text(reviewed)
        expect(cells.nth(4)).to_have_text(spot_checked)
        expect(cells.nth(5)).to_have_text(accepted)
        expect(cells.nth(6)).to_have_text(per_100)
        expect(cells.nth(7)).to_have_text(accuracy)
    first_changed, _, _, _, first_time, _ = figures(first)
    second_changed, _, _, _, second_time, _ = figures(second)
    expect(page.get_by_test_id("effort-trend")).to_have_text(
        f"Iteration {second.number}: {second_changed} of turns changed, {second_time} per 100 "
        f"turns, against {first_changed} and {first_time} in iteration {first.number}."
    )
