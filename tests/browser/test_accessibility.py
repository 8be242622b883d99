"""axe-core finds no serious or critical violation on the lead's and the rater's pages and the
help, as a lead and a rater see them: the sign-in page, the lead's home, a project's settings,
the rating studies with the form's refusals shown, a study's results, the dashboard, the API
tokens, a page that does not exist, the help, the rating page, the documents page and the
editor. The check itself must fail on a page that breaks a rule."""

import pytest

from backend.ratings.services import rating_study_create
from tests.browser.accessibility import assert_accessible, severe_violations
from tests.browser.conftest import open_editor, sign_in
from tests.browser.test_rating_study_form import give_confidences

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_check_finds_a_violation(page, live_server):
    page.goto(live_server.url + "/")
    page.get_by_label("Username").wait_for()
    page.evaluate(
        "document.body.insertAdjacentHTML('beforeend', '<button type=\"button\"></button>')"
    )

    assert any("button-name" in violation for violation in severe_violations(page))


def test_the_lead_pages_and_the_help_pass_axe(page, live_server, team, small_document):
    from playwright.sync_api import expect

    give_confidences(team, small_document)
    project = team.project.pk
    page.goto(live_server.url + "/")
    page.get_by_label("Username").wait_for()
    assert_accessible(page, "the sign-in page")
    sign_in(page, live_server, "lead")
    assert_accessible(page, "the lead's documents page")

    page.goto(f"{live_server.url}/lead")
    expect(page.get_by_role("heading", name="Projects you lead")).to_be_visible()
    assert_accessible(page, "the lead's home")

    page.goto(f"{live_server.url}/lead/projects/{project}")
    expect(page.get_by_role("heading", name="Members")).to_be_visible()
    assert_accessible(page, "the project's settings")

    page.goto(f"{live_server.url}/lead/projects/{project}/ratings")
    form = page.get_by_role("form", name="New rating study")
    form.get_by_role("button", name="Create the study").click()
    expect(form.locator("#study-name-error")).to_be_visible()
    assert_accessible(page, "the rating-study form with its refusals")

    study = rating_study_create(
        actor=team.lead,
        project=team.project,
        name="first look",
        sample_size=5,
        controls=0,
        rater_ids=[team.annotator.pk],
        raters_per_pair=1,
        seed=3,
    )
    page.goto(f"{live_server.url}/lead/projects/{project}/ratings/{study.pk}")
    expect(page.get_by_test_id("rating-panel").get_by_role("table")).to_be_visible()
    assert_accessible(page, "a study's results")

    page.goto(f"{live_server.url}/lead/projects/{project}/dashboard")
    expect(page.get_by_role("table", name="Corpus growth")).to_be_visible()
    assert_accessible(page, "the dashboard")

    page.goto(f"{live_server.url}/tokens")
    expect(page.get_by_role("heading", name="API tokens")).to_be_visible()
    assert_accessible(page, "the API tokens page")

    page.goto(f"{live_server.url}/no/such/page")
    expect(page.get_by_role("heading", name="Page not found")).to_be_visible()
    assert_accessible(page, "a page that does not exist")

    page.goto(f"{live_server.url}/help")
    expect(page.get_by_role("heading", name="Tandem help")).to_be_visible()
    assert_accessible(page, "the help's index")
    page.goto(f"{live_server.url}/help/leading")
    expect(page.get_by_test_id("help-article").get_by_role("img").first).to_be_visible()
    assert_accessible(page, "a help page")


def test_the_rater_and_annotator_pages_pass_axe(page, live_server, team, small_document):
    from playwright.sync_api import expect

    give_confidences(team, small_document)
    study = rating_study_create(
        actor=team.lead,
        project=team.project,
        name="first look",
        sample_size=5,
        controls=0,
        rater_ids=[team.annotator.pk],
        raters_per_pair=1,
        seed=3,
    )
    sign_in(page, live_server, "annotator")
    expect(page.get_by_role("link", name="first look (Public meetings)")).to_be_visible()
    assert_accessible(page, "the annotator's documents page")

    page.goto(f"{live_server.url}/projects/{team.project.pk}/ratings/{study.pk}")
    expect(page.get_by_test_id("rating-pair")).to_be_visible()
    assert_accessible(page, "the rating page")

    open_editor(page, live_server, small_document)
    assert_accessible(page, "the editor")
