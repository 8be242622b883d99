"""The data migration from flat alignment parameters to sections, run forward on rows the
old layout wrote and back again, on the real database."""

import uuid

import pytest

from tests.migrations import migrate_around
from workers.align.params import AlignmentParams
from workers.align.tuning.tune import expand_grid

MIGRATION = ("alignments", "0003_nested_alignment_params")

FLAT_TURNS = {
    "aligner": "turns",
    "scoring": {"method": "embedding", "centre": True, "normalisation": "none"},
    "vectors": {"dimensions": 100},
    "power": 1.0,
    "path_weight": "gain",
    "match_offset": 0.2,
    "skip_gain": 0.0,
    "gap_open": 3.0,
    "baseline_quantile": None,
    "unaligned_gain": 8.0,
    "turn_gap_open": 80.0,
    "min_words": 3,
    "min_support": None,
}
NESTED_TURNS = {
    "aligner": "turns",
    "scoring": {"method": "embedding", "centre": True},
    "vectors": {"dimensions": 100},
    "turns": {
        "match_offset": 0.2,
        "baseline_quantile": None,
        "unaligned_gain": 8.0,
        "gap_open": 80.0,
    },
    "abstention": {"min_words": 3, "min_support": None},
}
FLAT_DP = {"power": 2.0, "scoring": {"normalisation": "rows", "method": "rouge"}}
NESTED_DP = {"scoring": {"method": "rouge"}, "dp": {"power": 2.0, "normalisation": "rows"}}
FLAT_GRID = {
    "aligner": ["gapped", "turns"],
    "scoring__window_size,scoring__window_overlap": [[1, 0], [2, 1]],
    "match_offset": [0.1, 0.3],
    "turn_gap_open": [40.0, 80.0],
    "min_words": [0, 3],
}
NESTED_GRID = {
    "aligner": ["gapped", "turns"],
    "scoring.window_size,scoring.window_overlap": [[1, 0], [2, 1]],
    "turns.match_offset,gapped.match_offset": [[0.1, 0.1], [0.3, 0.3]],
    "turns.gap_open": [40.0, 80.0],
    "abstention.min_words": [0, 3],
}
NOT_THE_ENGINES = {"source": "public_meetings `initial` side"}


@pytest.fixture
def old_rows():
    apps = migrate_around(MIGRATION, before=True)
    project = apps.get_model("projects", "Project").objects.create(name="old")
    parameter_sets = apps.get_model("alignments", "ParameterSet").objects
    turns = parameter_sets.create(project=project, name="turns", params=FLAT_TURNS)
    dp = parameter_sets.create(project=project, name="dp", params=FLAT_DP)
    initial = parameter_sets.create(project=project, name="initial", params=NOT_THE_ENGINES)
    job = apps.get_model("jobs", "Job").objects.create(
        project=project, kind="tune", result={"params": FLAT_TURNS}, celery_task_id=uuid.uuid4()
    )
    run = apps.get_model("tuning", "TuningRun").objects.create(
        project=project,
        job=job,
        gold_documents=[],
        base_params={},
        grid=FLAT_GRID,
        stages=[{"documents": 1, "keep": 0.0}],
        settings_count=1,
        planned_evaluations=1,
    )
    candidate = apps.get_model("tuning", "TuningCandidate").objects.create(
        run=run, index=0, params=FLAT_DP
    )
    iteration = apps.get_model("iterations", "Iteration").objects.create(
        project=project, number=1, parameters={"name": "turns", "params": FLAT_TURNS}
    )
    yield {
        "turns": turns.pk,
        "dp": dp.pk,
        "initial": initial.pk,
        "job": job.pk,
        "run": run.pk,
        "candidate": candidate.pk,
        "iteration": iteration.pk,
    }
    migrate_around(MIGRATION, before=False)


@pytest.mark.django_db(transaction=True)
def test_stored_parameters_move_into_sections_and_back(old_rows):
    apps = migrate_around(MIGRATION, before=False)

    def stored(app, model, pk, field):
        return getattr(apps.get_model(app, model).objects.get(pk=old_rows[pk]), field)

    assert stored("alignments", "ParameterSet", "turns", "params") == NESTED_TURNS
    assert stored("alignments", "ParameterSet", "dp", "params") == NESTED_DP
    assert stored("alignments", "ParameterSet", "initial", "params") == NOT_THE_ENGINES
    assert stored("jobs", "Job", "job", "result") == {"params": NESTED_TURNS}
    assert stored("tuning", "TuningRun", "run", "grid") == NESTED_GRID
    assert stored("tuning", "TuningCandidate", "candidate", "params") == NESTED_DP
    assert stored("iterations", "Iteration", "iteration", "parameters")["params"] == NESTED_TURNS
    assert AlignmentParams.from_dict(NESTED_TURNS).path.gap_open == 80.0
    assert AlignmentParams.from_dict(NESTED_DP).path.normalisation == "rows"
    assert len(expand_grid(AlignmentParams(), NESTED_GRID)) == 2 * (2 * 2 + 2 * 2 * 2)

    apps = migrate_around(MIGRATION, before=True)

    assert stored("alignments", "ParameterSet", "dp", "params") == FLAT_DP
    assert stored("tuning", "TuningRun", "run", "grid") == FLAT_GRID
    dropped = ("power", "path_weight", "skip_gain", "gap_open")
    back = stored("alignments", "ParameterSet", "turns", "params")
    assert back == {key: value for key, value in FLAT_TURNS.items() if key not in dropped} | {
        "scoring": {"method": "embedding", "centre": True}
    }, "another aligner's settings are dropped; scoring.normalisation only belongs to dp"
