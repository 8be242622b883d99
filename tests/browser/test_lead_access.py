"""Annotators find no way into the lead's pages, and are told so when they type the address;
leads find them from the app bar."""

import pytest

from tests.browser.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_annotator_sees_no_lead_link_and_a_clear_message(page, live_server, team):
    from playwright.sync_api import expect

    sign_in(page, live_server, "annotator")
    page.wait_for_load_state("networkidle")  # the app bar has learnt the caller's roles
    expect(page.get_by_role("link", name="Projects you lead")).to_have_count(0)

    page.goto(f"{live_server.url}/lead/projects/{team.project.pk}/dashboard")
    expect(page.get_by_test_id("leads-only")).to_contain_text(
        "Only the project's leads manage it; you are an annotator here"
    )
    expect(page.get_by_test_id("dashboard")).to_have_count(0)


def test_lead_reaches_the_project_from_the_app_bar(page, live_server, team):
    from playwright.sync_api import expect

    sign_in(page, live_server, "lead")
    page.get_by_role("link", name="Projects you lead").click()
    page.get_by_role("link", name=team.project.name).click()
    expect(page.get_by_role("heading", name="Members")).to_be_visible()
    expect(page.get_by_label("Role of annotator")).to_have_value("annotator")


def test_lead_adds_a_member_by_username_and_is_told_of_an_unknown_one(page, live_server, team):
    from django.contrib.auth import get_user_model
    from playwright.sync_api import expect

    get_user_model().objects.create_user("colleague", password=None)
    sign_in(page, live_server, "lead")
    page.goto(f"{live_server.url}/lead/projects/{team.project.pk}")
    form = page.get_by_role("form", name="Add a member")

    form.get_by_label("Username").fill("colleage")
    form.get_by_role("button", name="Add member").click()
    expect(page.get_by_role("alert")).to_contain_text("There is no active user named 'colleage'.")

    form.get_by_label("Username").fill("colleague")
    form.get_by_label("as").select_option("lead")
    form.get_by_role("button", name="Add member").click()
    expect(page.get_by_label("Role of colleague")).to_have_value("lead")
    expect(page.get_by_role("alert")).to_have_count(0)
