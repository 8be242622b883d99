"""A lead edits a talk project's paper settings after creation on its project page, reading
first what saving would change for the papers already imported."""

import re

import pytest

from backend.alignments.services.pre_alignments import (
    parameter_set_get_or_create,
    pre_alignment_record,
)
from backend.documents.models import Document
from backend.projects.models import Project
from tests.browser.accessibility import assert_accessible
from tests.browser.conftest import sign_in
from tests.talks.documents import talk_document

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_lead_changes_a_talk_projects_settings_after_seeing_what_they_change(
    page, live_server, team
):
    from playwright.sync_api import expect

    Project.objects.filter(pk=team.project.pk).update(kind=Project.Kind.TALK, language="en")
    swifts = talk_document(team.project, "swifts", "sentences")
    pre_alignment_record(
        document=swifts,
        parameter_set=parameter_set_get_or_create(
            project=team.project, name="hmm", params={}, engine_version="t"
        ),
        labels=[-1] * swifts.turn_count,
        confidences=[0.0] * swifts.turn_count,
        engine_version="t",
    )
    sign_in(page, live_server, "lead")
    page.goto(f"{live_server.url}/lead/projects/{team.project.pk}")
    form = page.get_by_role("form", name="Talk settings")
    preview = form.get_by_test_id("settings-preview")
    expect(form.get_by_label(re.compile("^One report segment per"))).to_have_value("sentences")
    expect(preview).to_be_empty()

    form.get_by_role("radio", name=re.compile("These titles")).check()
    form.get_by_label("Excluded section titles, one a line").fill("Abstract\nRelated Work")
    expect(preview).to_contain_text("If you save")
    expect(preview.locator("li[data-action=pre_align]")).to_contain_text(
        "1 paper was pre-aligned with the old list: pre-align it again"
    )
    expect(preview).to_contain_text("In 1 paper, 1 segment changes sides")
    assert_accessible(page, "the talk settings with their preview")

    form.get_by_label(re.compile("^One report segment per")).select_option("sections")
    expect(preview.locator("li[data-action=reimport]")).to_contain_text(
        "1 imported paper is cut otherwise"
    )
    form.get_by_role("button", name="Save paper settings").click()
    expect(form.get_by_role("status")).to_have_text("Saved.")
    team.project.refresh_from_db()
    assert team.project.settings == {
        "report_unit": "sections",
        "excluded_sections": ["Abstract", "Related Work"],
    }

    page.reload()
    expect(form.get_by_label(re.compile("^One report segment per"))).to_have_value("sections")
    expect(form.get_by_label("Excluded section titles, one a line")).to_have_value(
        "Abstract\nRelated Work"
    )
    expect(preview).to_be_empty()
    assert Document.objects.get(pk=swifts.pk).segments.filter(key__contains=".").exists()
