"""The Content-Security-Policy holds on every kind of page Tandem serves, and is enforced:
the `page` fixture fails any browser test whose pages break it (the editor, the lead's pages
and the dashboard have their own tests); here the API's documentation and the admin, and an
injected image from another origin, blocked and reported, so that the check can fail."""

import pytest
from django.conf import settings

from tests.browser.conftest import open_editor, sign_in
from tests.conftest import csp_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_app_carries_the_policy_and_breaks_none_of_it(page, live_server, small_document):
    response = page.goto(live_server.url + "/")

    assert response.headers["content-security-policy"] == settings.CONTENT_SECURITY_POLICY
    sign_in(page, live_server, "annotator")
    open_editor(page, live_server, small_document)


def test_the_api_docs_and_the_admin_have_no_inline_code(page, live_server):
    """The test server does not serve collected (hashed) static files, so Swagger UI's
    bundle does not run here: this checks the pages' own markup, where inline code would be."""
    for path in ("/api/v1/docs/", "/admin/login/"):
        response = page.goto(live_server.url + path)
        assert response.headers["content-security-policy"] == settings.CONTENT_SECURITY_POLICY
        page.wait_for_load_state("load")


def test_content_from_another_origin_is_blocked_and_reported(browser, live_server):
    context = browser.new_context()
    page = context.new_page()
    violations = csp_violations(page)
    page.goto(live_server.url + "/")
    page.get_by_label("Username").wait_for()

    page.evaluate(
        "document.body.insertAdjacentHTML('beforeend', "
        "'<img src=\"http://example.invalid/tracker.png\">')"
    )
    page.wait_for_timeout(500)
    context.close()

    assert any("img-src" in violation for violation in violations), violations
