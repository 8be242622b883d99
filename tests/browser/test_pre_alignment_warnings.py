"""A real worker pre-aligns, with the shipped defaults, an English document whose transcript
has nothing to do with its report: the lead opening it in the editor reads a banner saying
what happened, the likely cause and what to do; the annotator assigned to it does not."""

import pytest
from playwright.sync_api import expect

from backend.alignments.models import PreAlignment
from backend.alignments.services.pre_alignments import pre_align_start, shipped_parameter_set
from tests.align.off_topic_pair import TURNS
from tests.browser.conftest import open_editor, sign_in
from tests.browser.lead_builders import wait_for_success
from tests.tasks.off_topic import off_topic_document
from workers.align.diagnosis import ALL_UNALIGNED

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_the_lead_reads_why_a_degenerate_pre_alignment_is_useless(
    live_server, page, team, celery_worker_process
):
    team.project.language = "en"
    team.project.save()
    document = off_topic_document(team.project, assignees=[team.annotator])
    shipped = shipped_parameter_set(team.project)
    wait_for_success(
        pre_align_start(
            actor=team.lead, project=team.project, documents=[document], parameter_set=shipped
        )
    )
    [warning] = PreAlignment.objects.get(document=document, parameter_set=shipped).warnings
    assert warning["code"] == ALL_UNALIGNED

    sign_in(page, live_server, "lead")
    open_editor(page, live_server, document)
    banner = page.get_by_role("region", name="Pre-alignment warnings")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("This pre-alignment looks degenerate")
    expect(banner).to_contain_text(f"{TURNS} of {TURNS} turns (100% of the words) are left")
    expect(banner).to_contain_text(f"Likely cause: {warning['cause']}")
    expect(banner).to_contain_text(f"What to do: {warning['do']}")

    page.context.clear_cookies()
    sign_in(page, live_server)
    open_editor(page, live_server, document)
    expect(page.get_by_text(f"{TURNS} unaligned")).to_be_visible()
    expect(page.get_by_role("region", name="Pre-alignment warnings")).to_have_count(0)
