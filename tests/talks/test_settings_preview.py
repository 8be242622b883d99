"""Before saving a talk project's settings, a lead sees what the change would do to
the documents already imported: which must be imported again (report unit, windows), which
pre-aligned again (excluded sections), and which follow at once (salience labels). The
preview writes nothing, checks the settings as a PATCH does, and is for leads only (the
permission matrix has its row)."""

import pytest
from rest_framework.test import APIClient

from backend.alignments.services.pre_alignments import (
    parameter_set_get_or_create,
    pre_alignment_record,
)
from backend.documents.models import Document, ReportSegment
from backend.projects.models import Membership, Project, Role
from tests.domain import make_user
from tests.talks.documents import talk_document

pytestmark = pytest.mark.django_db


@pytest.fixture
def talks():
    lead = make_user("talk-lead")
    project = Project.objects.create(name="Talks", language="en", kind=Project.Kind.TALK)
    Membership.objects.create(project=project, user=lead, role=Role.LEAD)
    in_sentences = talk_document(project, "swifts", "sentences")
    in_sections = talk_document(project, "bats", "sections")
    Document.objects.create(project=project, name="broken", status=Document.Status.IMPORT_FAILED)
    pre_alignment_record(
        document=in_sentences,
        parameter_set=parameter_set_get_or_create(
            project=project, name="hmm", params={}, engine_version="t"
        ),
        labels=[-1] * in_sentences.turns.count(),
        confidences=[0.0] * in_sentences.turns.count(),
        engine_version="t",
    )
    client = APIClient()
    client.force_login(lead)
    return project, client, in_sentences, in_sections


def preview(client: APIClient, project: Project, settings: dict):
    return client.post(
        f"/api/v1/projects/{project.pk}/settings-preview/", {"settings": settings}, format="json"
    )


def test_the_same_settings_change_nothing(talks):
    project, client, *_ = talks

    answer = preview(client, project, {}).json()

    assert answer == {"imported_documents": 2, "effects": []}


def test_a_new_report_unit_names_the_papers_cut_otherwise(talks):
    project, client, _in_sentences, _in_sections = talks

    effects = preview(client, project, {"report_unit": "sections"}).json()["effects"]

    assert [(e["setting"], e["documents"], e["action"]) for e in effects] == [
        ("report_unit", 1, "reimport")
    ]
    assert effects[0]["summary"].startswith("Papers uploaded from now on are cut per section. ")
    assert "1 imported paper is cut otherwise" in effects[0]["summary"]


def test_excluded_sections_count_the_segments_that_change_sides_and_the_pre_aligned_papers(
    talks,
):
    project, client, in_sentences, in_sections = talks
    now_kept = ("2 Related Work", "Acknowledgments")
    segments = ReportSegment.objects.filter(
        document__in=[in_sentences, in_sections], section__in=now_kept
    ).count()

    effects = preview(client, project, {"excluded_sections": ["Abstract"]}).json()["effects"]

    assert [(e["setting"], e["documents"], e["action"]) for e in effects] == [
        ("excluded_sections", 2, "pre_align")
    ]
    assert effects[0]["summary"].startswith(f"In 2 papers, {segments} segments change sides")
    assert "1 paper was pre-aligned with the old list: pre-align it again" in effects[0]["summary"]
    project.refresh_from_db()
    assert project.settings == {}


def test_settings_are_checked_as_a_patch_checks_them(talks):
    project, client, *_ = talks

    unknown = preview(client, project, {"paragraphs": True})
    bad_unit = preview(client, project, {"report_unit": "paragraphs"})

    assert unknown.status_code == 400
    assert "paragraphs" in str(unknown.json()["settings"])
    assert bad_unit.status_code == 400
    assert "report_unit" in bad_unit.json()["settings"]
