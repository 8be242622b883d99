"""The review mode, by keyboard alone: the annotator switches it on, steps through the turns
the pre-alignment is less sure of than the threshold, confirms one, corrects one with the usual
keys, which adds its neighbours to the turns to review, steps on through the one after it and
back, then accepts the rest, confirming in the dialog. The server then holds the turns visited
as reviewed and every other unchanged turn as accepted without review, in the annotation and
in the gold."""

import re

import numpy as np
import pytest
from playwright.sync_api import expect

from backend.alignments.models import Annotation, PreAlignment
from backend.curation.models import Gold
from backend.iterations.models import Iteration
from tests.browser.accessibility import assert_accessible
from tests.browser.conftest import expect_focused_turn, open_editor, sign_in, turn
from workers.align.annotation.review import turns_to_review

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

THRESHOLD = 0.5
DOUBTFUL_TURNS = (12, 30, 47)


@pytest.fixture
def reviewed_document(team, small_document):
    """The small meeting in an open iteration with a review threshold, its pre-alignment's
    confidences low on a few turns only."""
    pre_alignment = PreAlignment.objects.get(document=small_document)
    confidences = [0.2 if index in DOUBTFUL_TURNS else 0.99 for index in range(60)]
    pre_alignment.confidences = confidences
    pre_alignment.save(update_fields=["confidences"])
    iteration = Iteration.objects.create(project=team.project, number=1, review_threshold=THRESHOLD)
    small_document.iteration = iteration
    small_document.save(update_fields=["iteration"])
    shown = turns_to_review(np.asarray(confidences), THRESHOLD)
    return small_document, np.flatnonzero(shown).tolist()


def test_reviewing_by_keyboard_then_accepting_the_rest(live_server, page, team, reviewed_document):
    document, to_review = reviewed_document
    assert len(to_review) >= 3
    first, second, third = to_review[:3]
    sign_in(page, live_server)
    open_editor(page, live_server, document)
    bar = page.get_by_role("region", name="Review mode")
    expect(bar).to_contain_text(f"Review mode would show {len(to_review)} turns")

    page.keyboard.press("v")
    expect_focused_turn(page, first)
    expect(page.get_by_test_id("review-progress")).to_have_text(
        f"1 of {len(to_review)} turns to review reviewed"
    )
    page.keyboard.press("Enter")
    expect_focused_turn(page, second)
    page.keyboard.press("u")
    expect(turn(page, second)).to_contain_text("unaligned")
    expect(page.get_by_test_id("review-progress")).to_have_text(
        f"2 of {len(to_review) + 2} turns to review reviewed (2 next to your changes)"
    )
    page.keyboard.press("n")
    expect_focused_turn(page, second + 1)
    page.keyboard.press("n")
    expect_focused_turn(page, third)
    page.keyboard.press("Shift+N")
    expect_focused_turn(page, second + 1)
    page.keyboard.press("Shift+N")
    expect_focused_turn(page, second)
    expect(turn(page, second)).to_have_accessible_name(re.compile(r"changed, reviewed: "))
    assert_accessible(page, "the editor in review mode")

    page.keyboard.press("Shift+A")
    dialog = page.get_by_role("dialog", name="Accept the rest and submit?")
    expect(dialog).to_be_visible()
    unread = sorted(set(range(60)) - {0, first, second, second + 1, third})
    expect(dialog).to_contain_text(f"The {len(unread)} turns you have not reviewed")
    # Enter on the button focused first keeps reviewing: accepting is one deliberate step more.
    expect(dialog.get_by_role("button", name="Keep reviewing")).to_be_focused()
    page.keyboard.press("Shift+Tab")
    expect(dialog.get_by_role("button", name="Accept the rest and submit")).to_be_focused()
    page.keyboard.press("Enter")
    expect(
        page.get_by_text(f"Submitted: {len(unread)} turns accepted without review")
    ).to_be_visible()

    annotation = Annotation.objects.get(document=document, annotator=team.annotator)
    assert annotation.submitted_at is not None
    assert [index for index, flag in enumerate(annotation.reviewed) if flag] == [
        0,
        first,
        second,
        second + 1,
        third,
    ]
    assert [
        index for index, flag in enumerate(annotation.accepted_without_review) if flag
    ] == unread
    gold = Gold.objects.get(document=document)
    assert gold.accepted_without_review == annotation.accepted_without_review
