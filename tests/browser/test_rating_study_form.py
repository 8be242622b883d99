"""A lead draws a rating study through the app's form, reading the server's refusals beside
the fields they concern, lands on its results, and the rater named in it finds the study on
their documents page."""

import re

import pytest

from backend.alignments.selectors import current_pre_alignment
from backend.alignments.services.pre_alignments import (
    parameter_set_get_or_create,
    pre_alignment_record,
)
from backend.ratings.models import RatingAssignment, RatingStudy
from tests.browser.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def give_confidences(team, document) -> None:
    """The meeting's own pre-alignment, with turn j given confidence j / turns: automatic
    pairs with a confidence, which is what a study samples."""
    pre_alignment_record(
        document=document,
        parameter_set=parameter_set_get_or_create(
            project=team.project, name="engine", params={}, engine_version="t"
        ),
        labels=current_pre_alignment(document=document).labels,
        confidences=[turn / document.turn_count for turn in range(document.turn_count)],
        engine_version="t",
    )


def test_a_lead_creates_a_study_in_the_app_and_the_rater_sees_it(
    page, browser, live_server, team, small_document
):
    from playwright.sync_api import expect

    give_confidences(team, small_document)
    sign_in(page, live_server, "lead")
    page.goto(f"{live_server.url}/lead/projects/{team.project.pk}")
    page.get_by_role("navigation", name="Project pages").get_by_role(
        "link", name="Rating studies"
    ).click()
    expect(page.get_by_text("No rating study yet.")).to_be_visible()
    form = page.get_by_role("form", name="New rating study")

    form.get_by_label("Automatic pairs to sample").fill("0")
    form.get_by_role("button", name="Create the study").click()
    expect(form.get_by_label("Name")).to_have_attribute("aria-invalid", "true")
    expect(form.locator("#study-name-error")).to_have_text("This field may not be blank.")
    expect(form.locator("#study-sample_size-error")).to_contain_text("greater than or equal to 1")
    expect(form.locator("#study-raters-error")).to_be_visible()

    form.get_by_label("Name").fill("first look")
    form.get_by_label("Automatic pairs to sample").fill("5")
    form.get_by_label("annotator (annotator)").check()
    form.get_by_label("Raters per pair").fill("2")
    form.get_by_label(re.compile("^Seed")).fill("3")
    form.get_by_role("button", name="Create the study").click()
    expect(form.locator("#study-raters_per_pair-error")).to_have_text(
        "raters_per_pair is 2 but only 1 raters are named."
    )
    expect(form.locator("#study-name-error")).to_have_count(0)
    assert not RatingStudy.objects.exists()

    form.get_by_label("Raters per pair").fill("1")
    form.get_by_role("button", name="Create the study").click()
    study = page.get_by_role("region", name="first look")
    expect(study).to_be_visible()
    study_row = RatingStudy.objects.get()
    expect(page).to_have_url(
        f"{live_server.url}/lead/projects/{team.project.pk}/ratings/{study_row.pk}"
    )
    facts = page.get_by_test_id("study-facts")
    expect(facts).to_contain_text("5 of 5 asked, in 5 confidence bins")
    expect(facts).to_contain_text("Seed3")
    expect(page.get_by_test_id("rating-panel")).to_contain_text("first look: 0 of 5 ratings")
    assert study_row.seed == 3
    assert set(
        RatingAssignment.objects.filter(item__study=study_row).values_list("rater", flat=True)
    ) == {team.annotator.pk}

    page.get_by_role("link", name="Rating studies").first.click()
    expect(page.get_by_role("table", name="Rating studies").locator("tbody tr")).to_have_count(1)

    rater_context = browser.new_context(viewport={"width": 1280, "height": 800})
    rater = rater_context.new_page()
    sign_in(rater, live_server, "annotator")
    rater.get_by_role("link", name="first look (Public meetings)").click()
    expect(rater.get_by_test_id("rating-progress")).to_have_text("0 of 5 rated (0 %)")
    rater_context.close()
