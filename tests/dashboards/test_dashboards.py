"""The lead's dashboards on iterations closed through the services, with known corrections:
each 10-turn document has some of its turns moved by its annotator."""

import math

import numpy as np
import pytest

from backend.alignments.services.annotations import (
    AssignmentOperation,
    annotation_apply,
    annotation_submit,
)
from backend.alignments.services.spot_check import annotation_spot_check_draw
from backend.iterations.services import iteration_close, iteration_tune_again
from backend.jobs.models import Job
from backend.projects.models import Membership, Role
from backend.tuning.models import TuningRun
from backend.tuning.selectors import CANDIDATE_ORDERINGS
from tests.domain import evenly, make_document, make_user
from tests.iterations.builders import annotating_iteration, submit_moved

TURNS, SEGMENTS = 10, 4


def corrected_iteration(world, changes: dict[str, tuple[object, int, int]]):
    """`changes`: document name -> (annotator, turns moved to segment 3, seconds spent)."""
    documents = []
    for name, (annotator, moved, seconds) in changes.items():
        document = make_document(
            world.project, name=name, assignees=[annotator], pre_alignment=evenly(TURNS, SEGMENTS)
        )
        documents.append((document, annotator, moved, seconds))
    iteration = annotating_iteration(world.project, [document for document, *_ in documents])
    for document, annotator, moved, seconds in documents:
        submit_moved(annotator, document, moved, seconds)
    return iteration_close(actor=world.lead, iteration=iteration, tune=False)


@pytest.fixture
def two_iterations(world):
    second_annotator = make_user("second")
    Membership.objects.create(project=world.project, user=second_annotator, role=Role.ANNOTATOR)
    # evenly(10, 4) is 0 0 0 1 1 2 2 2 3 3: moving the last k turns to segment 3 changes
    # k - 2 of them, and with k = 5 segment 2 loses all its turns.
    first = corrected_iteration(
        world,
        {
            "a": (world.annotator, 3, 60),
            "b": (world.annotator, 4, 90),
            "c": (second_annotator, 5, 30),
        },
    )
    second = corrected_iteration(world, {"d": (second_annotator, 0, 0)})
    return first, second, second_annotator


def get(world, chart: str, **params):
    response = world.client("lead").get(
        f"/api/v1/projects/{world.project.pk}/dashboard/{chart}/", params
    )
    assert response.status_code == 200, response.json()
    return response.json()


def test_accuracy_gives_values_per_document_and_box_plot_figures_per_iteration(
    world, two_iterations
):
    first, second, _ = two_iterations

    data = get(world, "accuracy")

    assert data["metrics"][0] == "human_turn_accuracy"
    rows = {row["number"]: row for row in data["iterations"]}
    assert set(rows) == {world.iteration.number, first.number, second.number}
    assert [d["human_turn_accuracy"] for d in rows[first.number]["documents"]] == [90, 80, 70]
    summary = rows[first.number]["summary"]["human_turn_accuracy"]
    assert summary == {
        "count": 3, "mean": 80.0, "median": 80.0, "min": 70.0, "q1": 75.0, "q3": 85.0,
        "max": 90.0,
    }  # fmt: skip
    assert rows[second.number]["summary"]["human_turn_accuracy"]["median"] == 100.0
    assert rows[world.iteration.number]["summary"]["human_turn_accuracy"]["count"] == 0


def test_effort_sums_changed_turns_and_time_per_annotator_and_iteration(world, two_iterations):
    first, second, _ = two_iterations

    rows = get(world, "effort")["rows"]

    by_key = {(row["number"], row["username"]): row for row in rows}
    assert set(by_key) == {
        (first.number, "annotator"),
        (first.number, "second"),
        (second.number, "second"),
    }
    mine = by_key[(first.number, "annotator")]
    assert (mine["document_count"], mine["submitted_count"]) == (2, 2)
    assert (mine["turns_changed"], mine["seconds_spent"]) == (1 + 2, 60 + 90)
    assert mine["seconds_per_document"] == 75.0
    assert mine["turns_changed_per_document"] == 1.5
    assert [d["turns_changed"] for d in by_key[(first.number, "second")]["documents"]] == [3]


def test_corpus_growth_counts_gold_per_close_and_trusted_pairs_now(world, two_iterations):
    first, second, _ = two_iterations

    before = get(world, "corpus")
    world.project.settings = {"trusted_confidence": 0.5}
    world.project.save()
    trusting = get(world, "corpus")

    assert [row["gold_documents"] for row in before["iterations"]] == [3, 4]
    assert [row["number"] for row in before["iterations"]] == [first.number, second.number]
    assert before["now"]["gold_documents"] == 4
    assert before["now"]["gold_pairs"] == 4 * SEGMENTS - 1  # c left segment 2 empty
    # world.document is pre-aligned (confidence 0.5 everywhere), not gold: trusted at 0.5 only.
    assert (before["now"]["automatic_documents"], before["now"]["trusted_pairs"]) == (1, 0)
    assert trusting["now"]["trusted_pairs"] == SEGMENTS


def test_jobs_lists_only_queued_and_running_ones_oldest_first(world):
    running = Job.objects.create(
        project=world.project, kind=Job.Kind.PRE_ALIGN, status=Job.Status.RUNNING, progress=0.4
    )
    Job.objects.create(project=world.project, kind=Job.Kind.TUNE, status=Job.Status.SUCCEEDED)
    Job.objects.create(project=world.other_project, kind=Job.Kind.TUNE)

    jobs = get(world, "jobs")["jobs"]

    assert [(job["id"], job["status"]) for job in jobs] == [
        (world.job.pk, "queued"),
        (running.pk, "running"),
    ]
    assert jobs[1]["progress"] == 0.4


def test_the_candidate_table_sorts_by_any_score_and_refuses_unknown_orderings(
    world, two_iterations
):
    first, *_ = two_iterations
    iteration_tune_again(
        actor=world.lead,
        iteration=first,
        grid={"aligner": ["gapped"], "gapped.match_offset": [0.3, 0.35, 0.4]},
    )
    run = first.tuning_run
    # Scores as a finished run leaves them: the middle setting best, the last not evaluated;
    # the incumbent (the diagonal, in use) comes after the grid, unscored here.
    assert run.candidates.get(is_incumbent=True).index == 3
    for index, (segment, rank) in enumerate([(50.0, 2), (70.0, 1), (None, 3), (None, None)]):
        run.candidates.filter(index=index).update(segment_accuracy=segment, rank=rank)

    default = get(world, "tuning")
    best_first = get(world, "tuning", ordering="segment_accuracy")
    worst_first = get(world, "tuning", ordering="-segment_accuracy", iteration=first.pk)
    bad = world.client("lead").get(
        f"/api/v1/projects/{world.project.pk}/dashboard/tuning/", {"ordering": "params"}
    )
    missing = world.client("lead").get(
        f"/api/v1/projects/{world.project.pk}/dashboard/tuning/", {"iteration": first.pk + 99}
    )

    assert default["run"]["id"] == run.pk
    assert default["run"]["varied_settings"] == ["gapped.match_offset"]
    assert default["count"] == 4
    assert [row["index"] for row in default["results"]] == [1, 0, 2, 3]
    assert [row["is_incumbent"] for row in default["results"]] == [False, False, False, True]
    assert [row["segment_accuracy"] for row in best_first["results"]] == [70.0, 50.0, None, None]
    assert [row["segment_accuracy"] for row in worst_first["results"]] == [50.0, 70.0, None, None]
    assert bad.status_code == 400
    assert "segment_accuracy" in bad.json()["detail"]
    assert missing.status_code == 404


def test_the_dashboard_and_the_tuning_run_sort_candidates_alike_best_first(world, two_iterations):
    first, *_ = two_iterations
    iteration_tune_again(
        actor=world.lead,
        iteration=first,
        grid={"aligner": ["gapped"], "gapped.match_offset": [0.3, 0.35, 0.4, 0.45]},
    )
    run = first.tuning_run
    # (segment accuracy, WindowDiff, rank); the last candidate was dropped unscored, and the
    # incumbent (index 4, the diagonal in use) is left unscored too.
    run.candidates.filter(is_incumbent=True).delete()
    scores = [(50.0, 20.0, 3), (70.0, 10.0, 1), (60.0, 30.0, 2), (None, None, None)]
    for index, (segment, window_diff, rank) in enumerate(scores):
        run.candidates.filter(index=index).update(
            segment_accuracy=segment, word_accuracy=segment, window_diff=window_diff,
            objective=segment, rank=rank, documents_evaluated=4 - index,
        )  # fmt: skip
    client = world.client("lead")

    def order(ordering: str) -> tuple[list[int], list[int]]:
        dashboard = get(world, "tuning", ordering=ordering, iteration=first.pk)["results"]
        detail = client.get(
            f"/api/v1/projects/{world.project.pk}/tuning-runs/{run.pk}/", {"ordering": ordering}
        ).json()["candidates"]
        return [row["index"] for row in dashboard], [row["index"] for row in detail]

    for ordering in CANDIDATE_ORDERINGS:
        dashboard, detail = order(ordering)
        assert dashboard == detail, ordering
    assert order("segment_accuracy")[0] == [1, 2, 0, 3]
    assert order("-segment_accuracy")[0] == [0, 2, 1, 3]
    assert order("window_diff")[0] == [1, 0, 2, 3]
    assert order("rank")[0] == [1, 2, 0, 3]
    assert order("documents_evaluated")[0] == [0, 1, 2, 3]


def test_a_run_says_which_settings_its_grid_varies():
    run = TuningRun(
        grid={
            "aligner": ["gapped"],
            "scoring.window_size,scoring.window_overlap": [[1, 0], [2, 0], [3, 0]],
            "gapped.match_offset": [0.2, 0.2],
            "gapped.gap_open": [1, 2],
            "abstention.min_support": [None, 0.1],
        }
    )

    assert run.varied_settings == [
        "scoring.window_size",
        "gapped.gap_open",
        "abstention.min_support",
    ]


def test_accuracy_gives_each_closed_iteration_a_reliability_diagram(world, two_iterations):
    first, second, _ = two_iterations

    rows = {row["number"]: row for row in get(world, "accuracy")["iterations"]}

    # Every pre-aligned turn was 0.5 confident; the gold kept 9, 8 and 7 of each 10.
    assert rows[first.number]["reliability"] == {
        "turns": 30,
        "expected_calibration_error": pytest.approx(0.3),
        "auroc": 0.5,
        "bins": [
            {"low": 0.5, "high": 0.6, "predicted": 0.5, "observed": pytest.approx(0.8), "count": 30}
        ],
    }
    assert rows[second.number]["reliability"]["bins"][0]["observed"] == 1.0
    assert rows[second.number]["reliability"]["auroc"] is None, "no turn to rank below another"
    assert rows[world.iteration.number]["reliability"] == {
        "turns": 0,
        "expected_calibration_error": None,
        "auroc": None,
        "bins": [],
    }


def test_effort_counts_the_turns_reviewed_visited_confirmed_or_changed(world):
    document = make_document(
        world.project,
        name="reviewed",
        assignees=[world.annotator],
        pre_alignment=evenly(TURNS, SEGMENTS),
    )
    iteration = annotating_iteration(world.project, [document])
    saved = annotation_apply(
        annotator=world.annotator,
        document=document,
        version=0,
        operations=[AssignmentOperation("unalign", 9, 9)],
        seconds_spent=120,
        reviewed_turns=[0, 1, 2],
    )
    annotation_submit(
        annotator=world.annotator,
        document=document,
        version=saved.version,
        reviewed_turns=[2, 5],
        accept_unreviewed=True,
    )

    (row,) = [row for row in get(world, "effort")["rows"] if row["iteration"] == iteration.pk]

    assert (row["turns"], row["turns_changed"], row["turns_reviewed"]) == (TURNS, 1, 5)
    assert row["documents"][0]["turns_reviewed"] == 5
    assert row["seconds_spent"] == 120


def test_effort_counts_the_turns_a_spot_check_drew_among_those_reviewed(world):
    document = make_document(
        world.project, name="checked", assignees=[world.annotator], pre_alignment=evenly(TURNS, 2)
    )
    iteration = annotating_iteration(world.project, [document])
    saved = annotation_apply(
        annotator=world.annotator,
        document=document,
        version=0,
        operations=[],
        reviewed_turns=[0, 1],
    )
    drawn = annotation_spot_check_draw(
        annotator=world.annotator,
        document=document,
        share=0.5,
        shown_turns=[0, 1],
        rng=np.random.default_rng(0),
    ).spot_check["drawn"]
    annotation_submit(
        annotator=world.annotator,
        document=document,
        version=saved.version,
        reviewed_turns=drawn,
        accept_unreviewed=True,
    )

    (row,) = [row for row in get(world, "effort")["rows"] if row["iteration"] == iteration.pk]
    (only,) = get(world, "effort/documents", iteration=iteration.pk)["iterations"]

    assert len(drawn) == math.ceil(0.5 * (TURNS - 2))
    assert (row["turns_reviewed"], row["turns_spot_checked"]) == (2 + len(drawn), len(drawn))
    assert row["documents"][0]["turns_spot_checked"] == len(drawn)
    assert only["documents"][0]["annotations"][0]["turns_spot_checked"] == len(drawn)
    assert row["turns_accepted_without_review"] == TURNS - 2 - len(drawn)


def test_effort_per_document_lists_each_documents_annotators_and_what_they_did(
    world, two_iterations
):
    first, second, second_annotator = two_iterations
    reviewed = make_document(
        world.project, name="e", assignees=[world.annotator], pre_alignment=evenly(TURNS, 4)
    )
    untouched = make_document(
        world.project, name="f", assignees=[second_annotator], pre_alignment=evenly(TURNS, 4)
    )
    third = annotating_iteration(world.project, [reviewed, untouched])
    saved = annotation_apply(
        annotator=world.annotator,
        document=reviewed,
        version=0,
        operations=[AssignmentOperation("unalign", 9, 9)],
        seconds_spent=45,
        reviewed_turns=[0, 1, 2],
    )
    annotation_submit(
        annotator=world.annotator, document=reviewed, version=saved.version, accept_unreviewed=True
    )

    everything = get(world, "effort/documents")["iterations"]
    (only_first,) = get(world, "effort/documents", iteration=first.pk)["iterations"]
    (only_third,) = get(world, "effort/documents", iteration=third.pk)["iterations"]

    assert [i["number"] for i in everything] == [
        world.iteration.number,
        first.number,
        second.number,
        third.number,
    ]
    assert only_first == everything[1]
    assert [d["name"] for d in only_first["documents"]] == ["a", "b", "c"]
    by_name = {d["name"]: d for d in only_first["documents"]}
    assert by_name["b"]["turns"] == TURNS
    (b,) = by_name["b"]["annotations"]
    assert (b["username"], b["turns_changed"], b["seconds_spent"], b["submitted"]) == (
        "annotator",
        2,
        90,
        True,
    )
    assert b["turns_accepted_without_review"] == 0
    assert [a["username"] for a in by_name["c"]["annotations"]] == ["second"]
    e, f = only_third["documents"]
    (mine,) = e["annotations"]
    # One turn changed, three visited: the six others were accepted unread.
    assert (mine["turns_changed"], mine["turns_reviewed"]) == (1, 4)
    assert mine["turns_accepted_without_review"] == TURNS - 4
    assert (mine["seconds_spent"], mine["submitted"]) == (45, True)
    assert (f["name"], f["annotations"]) == ("f", [])
    (row,) = [row for row in get(world, "effort")["rows"] if row["iteration"] == third.pk]
    assert row["turns_accepted_without_review"] == TURNS - 4
    assert row["documents"][0]["turns_accepted_without_review"] == TURNS - 4


def test_effort_per_document_refuses_an_iteration_it_does_not_know(world):
    lead = world.client("lead")
    url = f"/api/v1/projects/{world.project.pk}/dashboard/effort/documents/"
    assert lead.get(url, {"iteration": 999999}).status_code == 404
    assert lead.get(url, {"iteration": "first"}).status_code == 400
