"""Pre-alignments stored before `pair_confidences` existed get theirs from their own labels
and confidences, on the real database, as the corpus dashboard then reads them."""

import pytest
from django.utils import timezone

from backend.alignments.models import PreAlignment
from backend.alignments.pair_confidences import stored_pair_confidences
from tests.migrations import migrate_around
from workers.align.document_model import UNALIGNED
from workers.align.pairs.shape import automatic_pair_confidences

MIGRATION = ("alignments", "0006_pre_alignment_pair_confidences")
LABELS = [0, 0, UNALIGNED, 1, 2, 2]
CONFIDENCES = [0.9, 0.7, 0.2, 0.95, 0.85, 0.8]


@pytest.fixture
def old_rows():
    apps = migrate_around(MIGRATION, before=True)
    project = apps.get_model("projects", "Project").objects.create(name="old")
    document = apps.get_model("documents", "Document").objects.create(
        project=project, name="old", turn_count=len(LABELS), segment_count=3
    )
    parameter_sets = apps.get_model("alignments", "ParameterSet").objects
    pre_alignments = apps.get_model("alignments", "PreAlignment").objects
    rows = {
        name: pre_alignments.create(
            document=document,
            parameter_set=parameter_sets.create(project=project, name=name, params={}),
            labels=LABELS,
            confidences=confidences,
            computed_at=timezone.now(),
        ).pk
        for name, confidences in (("scored", CONFIDENCES), ("unscored", []))
    }
    yield rows
    migrate_around(MIGRATION, before=False)


@pytest.mark.django_db(transaction=True)
def test_stored_pre_alignments_get_their_pairs_confidences(old_rows):
    migrate_around(MIGRATION, before=False)

    scored = PreAlignment.objects.get(pk=old_rows["scored"])
    unscored = PreAlignment.objects.get(pk=old_rows["unscored"])

    assert stored_pair_confidences(scored.pair_confidences).tolist() == [0.7, 0.8, 0.95]
    assert (
        stored_pair_confidences(scored.pair_confidences).tolist()
        == automatic_pair_confidences(LABELS, CONFIDENCES).tolist()
    )
    assert unscored.pair_confidences is None
