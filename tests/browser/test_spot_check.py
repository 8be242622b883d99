"""The spot check after review, in the browser. The annotator, by keyboard alone, reviews the
turns the review mode shows and asks to accept the rest: the server draws a share of the turns
left unread, the editor takes the annotator to them, and the rest is accepted once they are
read. The lead sets the share on the iteration's page and, once a spot-checked document is
submitted, reads the residual error re-estimated with what the check found."""

import math

import numpy as np
import pytest
from playwright.sync_api import expect

from backend.alignments.models import Annotation, PreAlignment
from backend.alignments.services.annotations import (
    AssignmentOperation,
    annotation_apply,
    annotation_submit,
)
from backend.alignments.services.spot_check import annotation_spot_check_draw
from backend.iterations.models import Iteration
from tests.browser.accessibility import assert_accessible
from tests.browser.conftest import expect_focused_turn, fit_window_to, open_editor, sign_in
from tests.iterations.builders import annotating_iteration
from workers.align.annotation.review import (
    ReviewedDocument,
    residual_error_after_review,
    turns_to_review,
)
from workers.align.annotation.spot_check import (
    SPOT_CHECK_SHARE,
    SpotCheckedDocument,
    model_error_sd,
    residual_error_spot_checked,
    spot_checked_error_sd,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

THRESHOLD = 0.5
SHARE = 0.1
DOUBTFUL_TURNS = (12, 30, 47)


def doubtful(document) -> np.ndarray:
    """The document's pre-alignment made sure of every turn but DOUBTFUL_TURNS."""
    confidences = [0.2 if index in DOUBTFUL_TURNS else 0.99 for index in range(60)]
    PreAlignment.objects.filter(document=document).update(confidences=confidences)
    return np.asarray(confidences)


@pytest.fixture
def spot_checked_document(team, small_document):
    doubtful(small_document)
    iteration = Iteration.objects.create(
        project=team.project, number=1, review_threshold=THRESHOLD, review_spot_check=SHARE
    )
    small_document.iteration = iteration
    small_document.save(update_fields=["iteration"])
    return small_document


def test_the_annotator_reads_the_spot_check_before_accepting_the_rest(
    live_server, page, team, spot_checked_document, tmp_path
):
    document = spot_checked_document
    sign_in(page, live_server)
    open_editor(page, live_server, document)
    bar = page.get_by_role("region", name="Review mode")
    expect(bar).to_contain_text(f"Review mode would show {len(DOUBTFUL_TURNS)} turns")

    page.keyboard.press("v")
    expect(bar).to_contain_text("then a spot check: 10.0 % of the turns you leave unread")
    expect_focused_turn(page, DOUBTFUL_TURNS[0])
    page.keyboard.press("Shift+A")
    expect(page.get_by_text("Review the 2 turns left to review first")).to_be_visible()
    for _ in DOUBTFUL_TURNS:
        page.keyboard.press("Enter")
    expect(page.get_by_test_id("review-progress")).to_have_text("3 of 3 turns to review reviewed")

    page.keyboard.press("Shift+A")
    pool = 60 - 1 - len(DOUBTFUL_TURNS)  # the first turn was visited when the editor opened
    drawn_count = math.ceil(SHARE * pool)
    expect(page.get_by_text(f"Spot check: {drawn_count} turns drawn at random")).to_be_visible()
    progress = page.get_by_test_id("spot-check-progress")
    expect(progress).to_have_text(f"Spot check: 1 of {drawn_count} drawn turns read")
    drawn = Annotation.objects.get(document=document, annotator=team.annotator).spot_check["drawn"]
    assert len(drawn) == drawn_count
    assert not set(drawn) & {0, *DOUBTFUL_TURNS}
    expect_focused_turn(page, drawn[0])
    assert_accessible(page, "the editor in review mode with a spot check drawn")
    page.screenshot(path=tmp_path / "editor-spot-check.png")

    page.keyboard.press("Shift+A")
    expect(
        page.get_by_text(f"Read the {drawn_count - 1} turns of the spot check left")
    ).to_be_visible()
    expect_focused_turn(page, drawn[1])
    to_review = sorted({*DOUBTFUL_TURNS, *drawn})
    for _ in to_review:
        page.keyboard.press("Enter")
    expect(progress).to_have_text(f"Spot check: {drawn_count} of {drawn_count} drawn turns read")

    page.keyboard.press("Shift+A")
    dialog = page.get_by_role("dialog", name="Accept the rest and submit?")
    expect(dialog).to_be_visible()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")
    unread = 60 - 1 - len(DOUBTFUL_TURNS) - drawn_count
    expect(page.get_by_text(f"Submitted: {unread} turns accepted without review")).to_be_visible()

    annotation = Annotation.objects.get(document=document, annotator=team.annotator)
    assert annotation.submitted_at is not None
    assert all(annotation.reviewed[turn] for turn in drawn)
    assert not any(annotation.accepted_without_review[turn] for turn in drawn)
    assert sum(annotation.accepted_without_review) == unread


def test_the_lead_sets_the_spot_check_and_reads_what_it_found(
    live_server, page, team, small_document, tmp_path
):
    confidences = doubtful(small_document)
    iteration = annotating_iteration(team.project, [small_document])
    Iteration.objects.filter(pk=iteration.pk).update(review_threshold=THRESHOLD)

    sign_in(page, live_server, "lead")
    page.goto(f"{live_server.url}/lead/projects/{team.project.pk}/iterations/{iteration.pk}")
    form = page.get_by_role("form", name="Spot check")
    expect(form).to_contain_text("None: annotators accept the rest unread")
    shown = turns_to_review(confidences, THRESHOLD)
    unread = 60 - int(shown.sum())
    suggested = math.ceil(SPOT_CHECK_SHARE * unread)
    expect(form).to_contain_text(
        f"A check of {100 * SPOT_CHECK_SHARE:.1f} % would draw about {suggested} turns "
        f"({100 * suggested / 60:.1f} % of the batch). Where the estimate without it misses"
    )
    form.get_by_role("spinbutton", name="Spot-check").fill(f"{100 * SHARE:g}")
    form.get_by_role("button", name="Set spot check").click()
    expect(form).to_contain_text("Spot check set to 10.0 % of the turns left unread.")
    assert Iteration.objects.get(pk=iteration.pk).review_spot_check == SHARE
    expect(form).to_contain_text(
        f"At the threshold in force, this check draws about {math.ceil(SHARE * unread)} turns"
    )

    saved = annotation_apply(
        annotator=team.annotator,
        document=small_document,
        version=0,
        operations=[],
        reviewed_turns=np.flatnonzero(shown).tolist(),
    )
    checked = annotation_spot_check_draw(
        annotator=team.annotator,
        document=small_document,
        share=SHARE,
        shown_turns=np.flatnonzero(shown).tolist(),
        rng=np.random.default_rng(0),
    )
    drawn = checked.spot_check["drawn"]
    saved = annotation_apply(
        annotator=team.annotator,
        document=small_document,
        version=saved.version,
        operations=[AssignmentOperation("unalign", drawn[0], drawn[0])],
        reviewed_turns=drawn,
    )
    annotation_submit(
        annotator=team.annotator,
        document=small_document,
        version=saved.version,
        accept_unreviewed=True,
    )
    annotation = Annotation.objects.get(document=small_document)
    read = np.asarray(annotation.reviewed)
    kept = read & ~np.asarray(annotation.changed)
    model = residual_error_after_review([ReviewedDocument(confidences, shown, read, kept)])
    pool = np.isin(np.arange(60), checked.spot_check["pool"])
    check = SpotCheckedDocument.from_labels(
        pool,
        np.isin(np.arange(60), drawn),
        checked.spot_check["labels_before"],
        annotation.assignments,
        confidences,
    )
    expected = residual_error_spot_checked(model * 60, 60, [check])
    give_or_take = 100 * spot_checked_error_sd(60, [check])

    page.reload()
    note = page.get_by_role("note", name="After review")
    expect(note).to_contain_text(f"residual error of their gold is {100 * model:.1f} %")
    expect(note).to_contain_text(
        f"With the spot checks ({len(drawn)} turns drawn at random among those left unread), "
        f"it is {100 * expected:.1f} %, give or take {give_or_take:.1f} "
        f"{'point' if f'{give_or_take:.1f}' == '1.0' else 'points'}."
    )
    assert give_or_take < 100 * model_error_sd(1)
    assert f"{100 * expected:.1f}" != f"{100 * model:.1f}"
    assert_accessible(page, "the iteration page with a spot-checked review")
    fit_window_to(page, form)
    page.screenshot(path=tmp_path / "iteration-spot-check.png")
