"""The help is pages of the app: from the app bar's Help link a user opens a page, sees its
screenshot load, follows a link to another page's heading and searches across pages, all
without leaving the app; someone signed out reads it too."""

import re

import pytest

from tests.browser.accessibility import assert_accessible
from tests.browser.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_user_reads_follows_and_searches_the_help(page, live_server, team):
    from playwright.sync_api import expect

    sign_in(page, live_server, "lead")
    page.get_by_role("link", name="Help", exact=True).click()
    expect(page.get_by_role("heading", name="Tandem help")).to_be_visible()
    pages = page.get_by_role("navigation", name="Help pages")
    page.evaluate("window.stillTheSameApp = true")

    with page.expect_response(re.compile(r"/help/screenshots/dashboard\.png$")) as image:
        pages.get_by_role("link", name=re.compile("^Leading a project")).click()
    assert image.value.status == 200
    article = page.get_by_test_id("help-article")
    expect(article.get_by_role("heading", level=1)).to_have_text(
        "Leading a project: the lead's pages and dashboard"
    )
    screenshot = article.get_by_role("img", name="The lead's dashboard")
    expect(screenshot).to_be_visible()
    # The response has arrived, but the image may still be decoding: wait until it is done
    # (as a broken one is too), then check it has pixels.
    expect(screenshot).to_have_js_property("complete", True)
    assert screenshot.evaluate("image => image.naturalWidth") > 0

    # leading.md links bootstrap.md in several places; this one leads to a heading.
    article.locator('a[href="/help/bootstrap#dashboards"]').click()
    expect(page).to_have_url(f"{live_server.url}/help/bootstrap#dashboards")
    expect(article.get_by_role("heading", level=1)).to_have_text(
        "Bootstrap iterations and the lead's dashboards"
    )
    expect(article.locator("#dashboards")).to_be_in_viewport()
    expect(pages.get_by_role("link", name=re.compile("^Bootstrap"))).to_have_attribute(
        "aria-current", "page"
    )

    page.get_by_role("searchbox", name="Search the help").fill("Krippendorff ordinal")
    page.get_by_role("button", name="Search").click()
    results = page.get_by_test_id("help-results")
    expect(results.get_by_role("heading")).to_have_text("Search: Krippendorff ordinal")
    assert_accessible(page, "the help's search results")
    results.get_by_role("link", name=re.compile("^Rating studies.* \u203a Results$")).click()
    expect(page).to_have_url(f"{live_server.url}/help/ratings#results")
    expect(article.locator("#results")).to_be_in_viewport()

    page.go_back()
    expect(page).to_have_url(f"{live_server.url}/help/bootstrap#dashboards")
    expect(article.get_by_role("heading", level=1)).to_have_text(
        "Bootstrap iterations and the lead's dashboards"
    )
    assert page.evaluate("window.stillTheSameApp") is True


def test_someone_signed_out_reads_the_help_and_an_old_address_leads_to_its_page(page, live_server):
    from playwright.sync_api import expect

    page.goto(f"{live_server.url}/help/annotating.md")

    expect(page).to_have_url(f"{live_server.url}/help/annotating")
    expect(page.get_by_test_id("help-article").get_by_role("heading", level=1)).to_have_text(
        "Annotating: the editor"
    )
    expect(page.get_by_role("link", name="Sign in")).to_be_visible()
