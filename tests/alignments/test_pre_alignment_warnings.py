"""A pre-alignment's warnings (what the engine found degenerate in it) are stored with it and
read by the project's leads and curators in the editor and the adjudication view; an
annotator's editor gets none, and outsiders get nothing at all."""

import pytest

from backend.alignments.models import ParameterSet
from backend.alignments.services.pre_alignments import pre_alignment_record
from tests.openapi import assert_matches_schema
from workers.align.diagnosis import ALL_UNALIGNED, diagnose

TURNS, SEGMENTS = 10, 4


@pytest.fixture
def warned(world):
    """The assigned document's pre-alignment replaced by one that aligns nothing, with what
    the engine says of it."""
    labels = [-1] * TURNS
    findings = diagnose(labels, [0.3] * TURNS, [4] * TURNS, SEGMENTS)
    assert [finding.code for finding in findings] == [ALL_UNALIGNED]
    pre_alignment_record(
        document=world.document,
        parameter_set=ParameterSet.objects.get(project=world.project, name="engine"),
        labels=labels,
        confidences=[0.3] * TURNS,
        engine_version="test",
        warnings=findings,
    )
    return [finding.as_dict() for finding in findings]


def editor(world, who: str):
    return world.client(who).get(
        f"/api/v1/projects/{world.project.pk}/documents/{world.document.pk}/editor/"
    )


@pytest.mark.parametrize("who", ["lead", "curator", "admin"])
def test_leads_and_curators_read_the_warnings_in_the_editor(world, warned, who) -> None:
    body = assert_matches_schema(editor(world, who))
    assert body["pre_alignment"]["warnings"] == warned
    assert body["pre_alignment"]["warnings"][0]["message"].startswith("10 of 10 turns")


def test_the_assigned_annotator_gets_the_pre_alignment_without_its_warnings(world, warned) -> None:
    body = assert_matches_schema(editor(world, "annotator"))
    assert body["pre_alignment"]["labels"] == [-1] * TURNS
    assert body["pre_alignment"]["warnings"] == []


@pytest.mark.parametrize(
    ("who", "status"),
    [("second_annotator", 404), ("outsider", 403), ("anonymous", 401)],
)
def test_others_read_no_pre_alignment(world, warned, who, status) -> None:
    response = editor(world, who)
    assert response.status_code == status
    assert "pre_alignment" not in response.json()


def test_the_adjudication_view_shows_the_warnings(world, warned) -> None:
    response = world.client("curator").get(
        f"/api/v1/projects/{world.project.pk}/documents/{world.document.pk}/adjudication/"
    )
    assert assert_matches_schema(response)["pre_alignment"]["warnings"] == warned


def test_a_pre_alignment_without_findings_stores_none(world) -> None:
    body = editor(world, "lead").json()
    assert body["pre_alignment"]["warnings"] == []
