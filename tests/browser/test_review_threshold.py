"""The lead sets an open iteration's review threshold on its page: the table shows the share
of turns shown and the estimated residual error in force (auto) and for a previewed value,
before the lead sets it; the figures are the engine's on the batch's confidences. Once an
annotator submits a reviewed document, the page says what the review found and the residual
error it leaves."""

import re

import numpy as np
import pytest
from playwright.sync_api import expect

from backend.alignments.models import PreAlignment
from backend.alignments.services.annotations import (
    AssignmentOperation,
    annotation_apply,
    annotation_submit,
)
from backend.iterations.models import Iteration
from tests.browser.accessibility import assert_accessible
from tests.browser.conftest import sign_in
from tests.iterations.builders import annotating_iteration
from workers.align.annotation.review import (
    DEFAULT_RESIDUAL_ERROR_TARGET,
    ReviewedDocument,
    plan_review,
    residual_error_after_review,
    threshold_for_residual_error,
    turns_to_review,
)
from workers.align.annotation.spot_check import model_error_sd

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PREVIEWED = 0.9
AIMED_AT = 0.05


def row_text(plan) -> re.Pattern:
    return re.compile(
        rf"{plan.threshold:.3f}\s*{100 * plan.shown_share:.1f} %\s*"
        rf"{100 * plan.estimated_residual_error:.1f} %"
    )


def with_confidences(document) -> list[float]:
    pre_alignment = PreAlignment.objects.get(document=document)
    confidences = [0.3 + 0.7 * ((index * 37) % 60) / 60 for index in range(60)]
    pre_alignment.confidences = confidences
    pre_alignment.save(update_fields=["confidences"])
    return confidences


def test_the_lead_previews_then_sets_the_review_threshold(live_server, page, team, small_document):
    confidences = with_confidences(small_document)
    PreAlignment.objects.filter(document=small_document).update(
        calibration=PreAlignment.Calibration.PRIOR
    )
    iteration = annotating_iteration(team.project, [small_document])
    batch = [np.asarray(confidences)]
    automatic = plan_review(
        batch, threshold_for_residual_error(batch, DEFAULT_RESIDUAL_ERROR_TARGET)
    )
    previewed = plan_review(batch, PREVIEWED)

    sign_in(page, live_server, "lead")
    page.goto(f"{live_server.url}/lead/projects/{team.project.pk}/iterations/{iteration.pk}")
    table = page.get_by_role("table", name="Review threshold")
    expect(table.get_by_role("row", name=re.compile(r"In force \(auto\)"))).to_have_text(
        row_text(automatic)
    )
    calibration = page.get_by_role("note", name="Calibration")
    expect(calibration).to_contain_text(
        "Confidences: 1 pre-alignment by the shipped calibration (fitted on other documents)."
    )
    expect(calibration).to_contain_text("often a point or more off on a new batch")
    page.get_by_role("spinbutton", name="Threshold").fill(str(PREVIEWED))
    page.get_by_role("button", name="Preview").click()
    expect(table.get_by_role("row", name=re.compile("Previewed"))).to_have_text(row_text(previewed))
    page.get_by_role("button", name="Set threshold").click()

    expect(page.get_by_text(f"Review threshold set to {PREVIEWED}.")).to_be_visible()
    expect(table.get_by_role("row", name=re.compile("In force"))).to_have_text(row_text(previewed))
    assert Iteration.objects.get(pk=iteration.pk).review_threshold == PREVIEWED

    # The lead states the residual error it will accept; the page finds the threshold.
    for_target = plan_review(batch, threshold_for_residual_error(batch, AIMED_AT))
    page.get_by_role("spinbutton", name="Aim at a residual error of").fill(f"{100 * AIMED_AT:g}")
    page.get_by_role("button", name="Find threshold").click()
    expect(table.get_by_role("row", name=re.compile("Previewed"))).to_have_text(
        row_text(for_target)
    )
    assert for_target.estimated_residual_error <= AIMED_AT
    page.get_by_role("button", name="Set threshold").click()
    expect(table.get_by_role("row", name=re.compile("In force"))).to_have_text(row_text(for_target))
    assert Iteration.objects.get(pk=iteration.pk).review_threshold == for_target.threshold


def test_the_lead_reads_what_a_submitted_review_found(
    live_server, page, team, small_document, tmp_path
):
    confidences = with_confidences(small_document)
    iteration = annotating_iteration(team.project, [small_document])
    threshold = threshold_for_residual_error(
        [np.asarray(confidences)], DEFAULT_RESIDUAL_ERROR_TARGET
    )
    shown = turns_to_review(np.asarray(confidences), threshold)
    read = np.flatnonzero(shown).tolist()
    saved = annotation_apply(
        annotator=team.annotator,
        document=small_document,
        version=0,
        operations=[AssignmentOperation("unalign", read[0], read[0])],
        reviewed_turns=read,
    )
    annotation_submit(annotator=team.annotator, document=small_document, version=saved.version)
    read_mask = np.isin(np.arange(60), read)
    kept = read_mask.copy()
    kept[read[0]] = False
    expected = residual_error_after_review(
        [ReviewedDocument(np.asarray(confidences), shown, read_mask, kept)]
    )

    sign_in(page, live_server, "lead")
    page.goto(f"{live_server.url}/lead/projects/{team.project.pk}/iterations/{iteration.pk}")

    note = page.get_by_role("note", name="After review")
    expect(note).to_contain_text(f"1 submitted document ({len(read)} turns read of 60)")
    expect(note).to_contain_text(
        f"of the {len(read)} shown turns read, annotators kept "
        f"{100 * (len(read) - 1) / len(read):.1f} % of the labels"
    )
    expect(note).to_contain_text(
        f"residual error of their gold is {100 * expected:.1f} %, give or take "
        f"{100 * model_error_sd(1):.1f} points (one standard deviation)."
    )
    assert_accessible(page, "the iteration page with a review's outcome")
    page.screenshot(path=tmp_path / "iteration-after-review.png", full_page=True)
