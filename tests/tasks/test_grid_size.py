"""A tuning grid is refused from its lists' lengths before it is expanded: a few hundred bytes
naming 4^20 (about 10^12) settings would otherwise hold a web worker for hours and exhaust its
memory, so these tests could not finish if the count came after the expansion."""

import pytest

from backend.alignments.services.annotations import annotation_submit
from backend.iterations.models import AccuracyRecord
from backend.jobs.models import Job
from backend.tuning.models import TuningRun
from backend.tuning.plan import MAX_SETTINGS
from backend.tuning.serializers import MAX_GRID_ENTRIES
from tests.domain import build_world
from tests.iterations.builders import annotating_iteration
from tests.tasks.conftest import gold_project
from tests.tasks.test_start_apis import lead_client

VALID_NAMES = [
    "turns.match_offset",
    "turns.unaligned_gain",
    "turns.gap_open",
    "abstention.min_words",
    "turns.baseline_quantile",
    "scoring.idf_weighting",
    "scoring.centre",
    "abstention.min_support",
]
HUGE_GRID = {name: [float(value) for value in range(32)] for name in VALID_NAMES}
"""32^8, about 10^12 settings, in about 1 KB."""


def assert_refused_for_size(response) -> None:
    assert response.status_code == 400, response.content
    assert f"at most {MAX_SETTINGS}" in str(response.json()["grid"])


@pytest.mark.django_db
def test_a_tuning_run_over_a_huge_grid_is_refused_before_expansion():
    project, lead, documents = gold_project(1)

    response = lead_client(lead).post(
        f"/api/v1/projects/{project.pk}/tuning-runs/",
        {"gold_documents": [documents[0].pk], "grid": HUGE_GRID},
        format="json",
    )

    assert_refused_for_size(response)
    assert not TuningRun.objects.exists()
    assert not Job.objects.filter(kind=Job.Kind.TUNE).exists()


@pytest.mark.parametrize(
    ("grid", "problem"),
    [
        ({"dp.power": [0.0] * (MAX_SETTINGS + 1)}, f"no more than {MAX_SETTINGS}"),
        ({f"name{n}": [0] for n in range(MAX_GRID_ENTRIES + 1)}, f"at most {MAX_GRID_ENTRIES}"),
    ],
)
@pytest.mark.django_db
def test_a_grid_with_too_many_values_or_entries_is_refused(grid, problem):
    project, lead, documents = gold_project(1)

    response = lead_client(lead).post(
        f"/api/v1/projects/{project.pk}/tuning-runs/",
        {"gold_documents": [documents[0].pk], "grid": grid},
        format="json",
    )

    assert response.status_code == 400
    assert problem in str(response.json()["grid"])
    assert not TuningRun.objects.exists()


@pytest.fixture
def world(db):
    return build_world()


def test_closing_an_iteration_with_a_huge_grid_is_refused_and_leaves_it_open(world):
    iteration = annotating_iteration(world.project, [world.document])
    annotation_submit(annotator=world.annotator, document=world.document, version=0)
    url = f"/api/v1/projects/{world.project.pk}/iterations/{iteration.pk}/close/"

    response = world.client("lead").post(url, {"grid": HUGE_GRID}, format="json")

    assert_refused_for_size(response)
    iteration.refresh_from_db()
    assert iteration.closed_at is None
    assert not AccuracyRecord.objects.exists()


def test_tuning_a_closed_iteration_again_with_a_huge_grid_is_refused(world):
    iteration = annotating_iteration(world.project, [world.document])
    annotation_submit(annotator=world.annotator, document=world.document, version=0)
    base = f"/api/v1/projects/{world.project.pk}/iterations/{iteration.pk}/"
    lead = world.client("lead")
    closed = lead.post(f"{base}close/", {"tune": False}, format="json")
    assert closed.status_code == 200, closed.json()

    response = lead.post(f"{base}tune/", {"grid": HUGE_GRID}, format="json")

    assert_refused_for_size(response)
    assert not TuningRun.objects.exists()
