"""The dashboard's agreement panel in the browser, on real public_meetings meetings that two
annotators corrected through the editor's services and a lead adjudicated."""

import re
from statistics import mean, median

import pytest
from django.contrib.auth import get_user_model

from backend.alignments.services.annotations import (
    AssignmentOperation,
    annotation_apply,
    annotation_submit,
)
from backend.curation.adjudication import adjudication_complete
from backend.curation.public_meetings import import_public_meeting
from backend.projects.models import Membership, Role
from tests.browser.accessibility import assert_accessible
from tests.browser.conftest import PASSWORD, sign_in
from tests.iterations.builders import annotating_iteration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MEETINGS = ["686239f069621dada25c3408f1867d66", "0b9ec6f049e68d4a35fae75792e2a84e"]
UNALIGNED_FIRST = {"annotator": (3, 4), "second": (8, 4)}
"""Per annotator, how many of each meeting's first turns they mark unaligned."""


def unalign_and_submit(annotator, document, turns: int) -> None:
    annotation = annotation_apply(
        annotator=annotator,
        document=document,
        version=0,
        operations=[AssignmentOperation("unalign", 0, turns - 1)],
        seconds_spent=60,
    )
    annotation_submit(annotator=annotator, document=document, version=annotation.version)


def test_agreement_per_iteration_per_pair_and_against_the_adjudicated_gold(page, live_server, team):
    from playwright.sync_api import expect

    second = get_user_model().objects.create_user("second", password=PASSWORD)
    Membership.objects.create(project=team.project, user=second, role=Role.ANNOTATOR)
    documents = [
        import_public_meeting(
            actor=team.lead,
            project=team.project,
            meeting_id=meeting,
            assignees=[team.annotator, second],
        )
        for meeting in MEETINGS
    ]
    annotating_iteration(team.project, documents)
    for position, document in enumerate(documents):
        for annotator in (team.annotator, second):
            unalign_and_submit(annotator, document, UNALIGNED_FIRST[annotator.username][position])
    # The first meeting's annotators disagree on 5 turns; the lead keeps the first's labels.
    adjudication_complete(curator=team.lead, document=documents[0], version=0)
    first_agreement = 100 * (documents[0].turn_count - 5) / documents[0].turn_count
    values = [first_agreement, 100.0]

    sign_in(page, live_server, "lead")
    page.goto(f"{live_server.url}/lead/projects/{team.project.pk}/dashboard")

    box_plot = page.get_by_role("img", name=re.compile("Observed agreement, turns"))
    expect(box_plot).to_have_attribute(
        "aria-label",
        re.compile(rf"#1: mean {mean(values):.1f}%, median {median(values):.1f}%, 2 documents"),
    )
    table = page.get_by_test_id("agreement-table")
    cells = table.get_by_role("row", name=re.compile(r"^#1 ")).get_by_role("cell")
    expect(cells.nth(0)).to_have_text("2")
    expect(cells.nth(1)).to_have_text(f"{mean(values):.1f}%")

    agreement_panel = page.get_by_role("region", name="Agreement between annotators")
    agreement_panel.get_by_label("Measure").select_option("kappa")
    expect(page.get_by_role("img", name=re.compile("Cohen's kappa"))).to_be_visible()

    pairs = page.get_by_test_id("agreement-pairs")
    expect(pairs.get_by_role("row", name=re.compile(r"#1 annotator & second 2 "))).to_be_visible()
    annotators = page.get_by_test_id("agreement-annotators")
    annotator_row = annotators.get_by_role("row", name=re.compile(r"^#1 annotator "))
    expect(annotator_row.get_by_role("cell").nth(3)).to_have_text("100.0%")
    second_row = annotators.get_by_role("row", name=re.compile(r"^#1 second "))
    expect(second_row.get_by_role("cell").nth(3)).to_have_text(f"{first_agreement:.1f}%")
    expect(second_row).to_contain_text("1 min (2)")
    assert_accessible(page, "the dashboard of a doubly annotated iteration")
