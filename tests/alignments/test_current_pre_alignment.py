"""A document's current pre-alignment is the one under its project's promoted parameter set,
else its latest; read for many documents at once, the choice is the same as one by one."""

import pytest

from backend.alignments.selectors import current_pre_alignment, current_pre_alignments
from backend.alignments.services.pre_alignments import (
    parameter_set_get_or_create,
    pre_alignment_record,
)
from backend.projects.models import Project
from tests.domain import make_document

TURNS, SEGMENTS = 10, 4


def proposal(document, parameter_set, segment: int):
    return pre_alignment_record(
        document=document, parameter_set=parameter_set, labels=[segment] * TURNS
    )


@pytest.mark.django_db
def test_the_promoted_sets_proposal_wins_over_a_later_one_and_the_latest_wins_otherwise():
    project, other_project = Project.objects.create(name="P"), Project.objects.create(name="O")
    promoted, later = (
        parameter_set_get_or_create(project=project, name=name, params={}, engine_version="")
        for name in ("promoted", "later")
    )
    project.promoted_parameter_set = promoted
    project.save(update_fields=["promoted_parameter_set"])
    elsewhere = parameter_set_get_or_create(
        project=other_project, name="own", params={}, engine_version=""
    )
    with_promoted = make_document(project, name="with promoted")
    under_promoted = proposal(with_promoted, promoted, 0)
    proposal(with_promoted, later, 1)
    without_promoted = make_document(project, name="without promoted")
    proposal(without_promoted, later, 1)
    latest = proposal(without_promoted, None, 2)
    in_other_project = make_document(other_project, name="other project")
    own = proposal(in_other_project, elsewhere, 3)
    never_aligned = make_document(project, name="never aligned")
    documents = [with_promoted, without_promoted, in_other_project, never_aligned]

    chosen = current_pre_alignments(document_ids=[document.pk for document in documents])

    assert chosen == {with_promoted.pk: under_promoted, without_promoted.pk: latest,
                      in_other_project.pk: own}  # fmt: skip
    for document in documents:
        assert current_pre_alignment(document=document) == chosen.get(document.pk)
