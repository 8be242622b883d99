"""The lead states the corpus's license on the project page; the Hugging Face export's card
carries it (tests/exports/test_huggingface_card.py), and a value that is no license id is
refused with the API's message."""

import pytest
from playwright.sync_api import expect

from backend.projects.models import Project
from tests.browser.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_lead_sets_the_dataset_license(live_server, page, team):
    sign_in(page, live_server, "lead")
    page.goto(f"{live_server.url}/lead/projects/{team.project.pk}")
    field = page.get_by_label("Dataset license")

    field.fill("CC BY 4.0")
    page.get_by_role("button", name="Save project").click()
    expect(page.get_by_role("alert")).to_contain_text("Hugging Face license id")
    assert "license" not in Project.objects.get(pk=team.project.pk).settings

    field.fill("cc-by-4.0")
    page.get_by_role("button", name="Save project").click()
    expect(page.get_by_role("status")).to_have_text("Saved.")
    assert Project.objects.get(pk=team.project.pk).settings == {"license": "cc-by-4.0"}
