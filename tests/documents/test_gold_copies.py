"""Benchmarks build projects of hundreds of gold documents from the corpus's 22 meetings by
importing copies of them; each copy is a document of its own with the meeting's gold."""

import pytest

from backend.curation.public_meetings import public_meeting_gold_import, source_of
from backend.curation.selectors import document_gold
from backend.projects.models import Project
from tests.domain import make_user

MEETING = "686239f069621dada25c3408f1867d66"


@pytest.mark.django_db
def test_a_copy_is_another_document_with_the_same_gold_and_importing_it_again_changes_nothing():
    lead = make_user("lead")
    project = Project.objects.create(name="copies")

    original = public_meeting_gold_import(actor=lead, project=project, meeting_id=MEETING)
    copy = public_meeting_gold_import(actor=lead, project=project, meeting_id=MEETING, copy=1)
    again = public_meeting_gold_import(actor=lead, project=project, meeting_id=MEETING, copy=1)

    assert copy.pk != original.pk
    assert again.pk == copy.pk
    assert copy.source == original.source == source_of(MEETING)
    assert copy.name == f"{original.name} copy 1"
    assert copy.turn_count == original.turn_count == 33
    copy_gold, original_gold = (document_gold(document_id=d.pk) for d in (copy, original))
    assert copy_gold is not None
    assert original_gold is not None
    assert copy_gold.labels == original_gold.labels
    assert project.documents.count() == 2
