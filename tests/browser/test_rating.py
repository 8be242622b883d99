"""A rater finds their study on their documents page and rates pairs of a real public_meetings
meeting with the keyboard only: answers, a note, undo, and resuming after a reload; the lead's
dashboard then shows the bins."""

import re

import pytest

from backend.alignments.selectors import current_pre_alignment
from backend.alignments.services.pre_alignments import (
    parameter_set_get_or_create,
    pre_alignment_record,
)
from backend.ratings.models import Rating, RatingAssignment, RatingItem
from backend.ratings.selectors import study_results
from backend.ratings.services import rating_record, rating_study_create
from tests.browser.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def rated_study(team, document):
    """The meeting's own pre-alignment, with turn j given confidence j / turns."""
    pre_alignment_record(
        document=document,
        parameter_set=parameter_set_get_or_create(
            project=team.project, name="engine", params={}, engine_version="t"
        ),
        labels=current_pre_alignment(document=document).labels,
        confidences=[turn / document.turn_count for turn in range(document.turn_count)],
        engine_version="t",
    )
    return rating_study_create(
        actor=team.lead,
        project=team.project,
        name="keyboard study",
        sample_size=5,
        controls=0,
        rater_ids=[team.annotator.pk],
        raters_per_pair=1,
        seed=3,
    )


def test_a_rater_rates_by_keyboard_undoes_and_resumes(page, live_server, team, small_document):
    from playwright.sync_api import expect

    study = rated_study(team, small_document)
    sign_in(page, live_server)
    page.get_by_role("link", name="keyboard study (Public meetings)").click()
    expect(page).to_have_url(f"{live_server.url}/projects/{team.project.pk}/ratings/{study.pk}")
    progress = page.get_by_test_id("rating-progress")
    pair = page.get_by_test_id("rating-pair")
    expect(progress).to_have_text("0 of 5 rated (0 %)")
    expect(page.locator(".rating-turn.context").first).to_be_visible()
    expect(page.get_by_text("confidence", exact=False)).to_have_count(0)

    first = pair.get_attribute("data-assignment")
    page.keyboard.press("y")
    expect(progress).to_have_text("1 of 5 rated (20 %)")
    expect(pair).not_to_have_attribute("data-assignment", first)
    page.keyboard.press("c")
    page.get_by_label(re.compile("Note, sent with the answer")).fill("one turn too many")
    page.keyboard.press("Escape")
    page.keyboard.press("p")
    expect(progress).to_have_text("2 of 5 rated (40 %)")
    third = pair.get_attribute("data-assignment")
    page.keyboard.press("n")
    expect(progress).to_have_text("3 of 5 rated (60 %)")
    page.keyboard.press("u")
    expect(progress).to_have_text("2 of 5 rated (40 %)")
    expect(pair).to_have_attribute("data-assignment", third)

    page.reload()
    expect(progress).to_have_text("2 of 5 rated (40 %)")
    expect(pair).to_have_attribute("data-assignment", third)
    for done, key in enumerate("nyy", start=3):
        page.keyboard.press(key)
        expect(progress).to_have_text(re.compile(f"^{done} of 5 rated"))
    expect(page.get_by_test_id("rating-finished")).to_be_visible()

    answers = list(Rating.objects.order_by("created_at").values_list("answer", "note"))
    assert answers == [
        ("yes", ""),
        ("partly", "one turn too many"),
        ("no", ""),
        ("yes", ""),
        ("yes", ""),
    ]


def test_the_dashboard_shows_precision_per_confidence_bin(page, live_server, team, small_document):
    from playwright.sync_api import expect

    study = rated_study(team, small_document)
    for assignment in RatingAssignment.objects.filter(item__study=study):
        rating_record(
            rater=team.annotator,
            study=study,
            assignment_id=assignment.pk,
            answer="yes" if assignment.item.bin_index >= 2 else "no",
        )
    sign_in(page, live_server, "lead")
    page.goto(f"{live_server.url}/lead/projects/{team.project.pk}/dashboard")
    panel = page.get_by_test_id("rating-panel")
    table = panel.get_by_role("table", name="Rating study per confidence bin")

    expect(table.locator("tbody tr")).to_have_count(5)
    expect(table.locator("tbody tr").nth(0).locator("td").nth(3)).to_contain_text("0.0 %")
    expect(table.locator("tbody tr").nth(4).locator("td").nth(3)).to_contain_text("100.0 %")
    expect(panel.get_by_test_id("recommended-confidence")).to_have_text(
        str(
            min(
                RatingItem.objects.filter(study=study, bin_index=2).values_list(
                    "confidence", flat=True
                )
            )
        )
    )
    results = study_results(study=study)
    rested_on = results["recommended_rated_pairs"]
    assert 0 < rested_on < len(RatingItem.objects.filter(study=study))
    expect(panel.get_by_test_id("recommendation")).to_contain_text(
        f"From it up, an estimated {100 * results['recommended_yes_share']:.1f} % of pairs are "
        f"good, resting on {rested_on} rated pair{'' if rested_on == 1 else 's'}"
    )


def test_the_rater_never_sees_the_recognisers_unknown_word_marker(
    page, live_server, team, small_document
):
    from django.db.models import F, Value
    from django.db.models.functions import Concat
    from playwright.sync_api import expect

    from backend.documents.models import TranscriptTurn

    # Every turn gets the recogniser's marker, so every pair shown has one.
    TranscriptTurn.objects.filter(document=small_document).update(
        text=Concat(F("text"), Value(" <unk> ."))
    )
    rated_study(team, small_document)
    sign_in(page, live_server)
    expect(page.get_by_test_id("study-progress")).to_contain_text("0 of 5 rated (0 %)")
    page.get_by_role("link", name="keyboard study (Public meetings)").click()
    pair = page.get_by_test_id("rating-pair")
    for done in range(1, 6):
        expect(page.get_by_role("button", name="Yes (y)")).to_be_in_viewport()
        expect(pair.locator(".unknown-word").first).to_be_visible()
        expect(pair).not_to_contain_text("<unk>")
        page.keyboard.press("y")
        expect(page.get_by_test_id("rating-progress")).to_contain_text(f"{done} of 5 rated")
    expect(page.get_by_test_id("rating-finished")).to_be_visible()
    page.get_by_role("link", name="Tandem").click()
    expect(page.get_by_test_id("study-progress")).to_contain_text("5 of 5 rated (100 %)")
