"""Pre-alignments stored before `calibration` existed get theirs from what they kept of the
decision that calibrated them: the parameter set's learned decision, else a run correlation
that only the shipped prior leaves without one; on the real database."""

import pytest
from django.utils import timezone

from backend.alignments.models import PreAlignment
from tests.migrations import migrate_around

MIGRATION = ("alignments", "0010_pre_alignment_calibration")
LABELS = [0, 0, 1]
CONFIDENCES = [0.9, 0.7, 0.95]


@pytest.fixture
def old_rows():
    apps = migrate_around(MIGRATION, before=True)
    project = apps.get_model("projects", "Project").objects.create(name="old")
    parameter_sets = apps.get_model("alignments", "ParameterSet").objects
    pre_alignments = apps.get_model("alignments", "PreAlignment").objects
    documents = apps.get_model("documents", "Document").objects
    cases = {
        "learned": ({"intercept": 0.0}, 0.4),
        "prior": (None, 0.3),
        "engine": (None, None),
    }
    rows = {}
    for name, (learned, run_correlation) in cases.items():
        rows[name] = pre_alignments.create(
            document=documents.create(project=project, name=name, turn_count=3, segment_count=2),
            parameter_set=parameter_sets.create(
                project=project, name=name, params={}, learned=learned
            ),
            labels=LABELS,
            confidences=CONFIDENCES,
            run_correlation=run_correlation,
            computed_at=timezone.now(),
        ).pk
    yield rows
    migrate_around(MIGRATION, before=False)


@pytest.mark.django_db(transaction=True)
def test_stored_pre_alignments_say_what_calibrated_them(old_rows):
    migrate_around(MIGRATION, before=False)

    calibration = {
        name: PreAlignment.objects.get(pk=pk).calibration for name, pk in old_rows.items()
    }

    assert calibration == {"learned": "learned", "prior": "prior", "engine": "none"}
