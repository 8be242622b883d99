"""An iteration's life through the API, without a worker: the pre-alignment job's body runs
in-process (the service the task calls), while the tuning run stays queued, which is what a
promotion must refuse."""

import pytest

from backend.alignments.models import PreAlignment
from backend.alignments.services.pre_alignments import pre_align_run
from backend.iterations.models import AccuracyRecord, Iteration
from backend.jobs.models import Job
from tests.domain import make_document
from workers.align.folds import new_document_defaults
from workers.align.params import AlignmentParams, load_params


def url(world, suffix: str = "") -> str:
    return f"/api/v1/projects/{world.project.pk}/iterations/{suffix}"


def open_first(world, **extra):
    return world.client("lead").post(
        url(world),
        {
            "name": "first batch",
            "starting_parameters": "diagonal",
            "documents": [world.unassigned_document.pk],
            "assignments": [
                {"document": world.unassigned_document.pk, "annotators": [world.annotator.pk]}
            ],
            **extra,
        },
        format="json",
    )


def correct_and_submit(world, document, segment: int = 0):
    annotator = world.client("annotator")
    base = f"/api/v1/projects/{world.project.pk}/documents/{document.pk}/annotation/"
    edited = annotator.post(
        base,
        {"version": 0, "operations": [{"action": "assign", "first_turn": 0, "last_turn": 2,
                                       "segment": segment}], "seconds_spent": 40},
        format="json",
    )  # fmt: skip
    assert edited.status_code == 200, edited.json()
    submitted = annotator.post(f"{base}submit/", {"version": edited.json()["version"]})
    assert submitted.status_code == 200, submitted.json()


def test_open_pre_align_annotate_close_then_promotion_waits_for_tuning(world):
    lead = world.client("lead")

    opened = open_first(world)
    assert opened.status_code == 201, opened.json()
    iteration = opened.json()
    assert (iteration["number"], iteration["status"]) == (2, "open")
    assert iteration["parameters"]["params"]["aligner"] == "diagonal"
    assert iteration["documents"][0]["assignees"] == [world.annotator.pk]

    early = lead.post(url(world, f"{iteration['id']}/close/"), {}, format="json")
    assert early.status_code == 409
    assert "not pre-aligned yet" in early.json()["detail"]

    pre_align_run(job_id=iteration["pre_align_job"]["id"])
    detail = lead.get(url(world, f"{iteration['id']}/")).json()
    assert detail["status"] == "annotating"
    assert (
        detail["documents"][0]["pre_alignment"]
        == PreAlignment.objects.get(
            document=world.unassigned_document, parameter_set_id=iteration["parameter_set"]
        ).pk
    )

    unsubmitted = lead.post(url(world, f"{iteration['id']}/close/"), {}, format="json")
    assert unsubmitted.status_code == 409
    assert unsubmitted.json()["unsubmitted"] == [world.unassigned_document.pk]

    correct_and_submit(world, world.unassigned_document)
    closed = lead.post(url(world, f"{iteration['id']}/close/"), {}, format="json")
    assert closed.status_code == 200, closed.json()
    closed = closed.json()
    assert closed["status"] == "closing"
    assert closed["tuning"]["job"]["status"] == "queued"
    assert closed["tuning"]["gold_documents"] == [world.unassigned_document.pk]
    assert closed["documents"][0]["record"]["seconds_spent"] == 40
    assert closed["accuracy"]["human_turn_accuracy"]["count"] == 1

    refused = lead.post(url(world, f"{iteration['id']}/promote/"), {}, format="json")
    assert refused.status_code == 409
    assert "queued" in refused.json()["detail"]
    assert "only a finished run" in refused.json()["detail"]
    world.project.refresh_from_db()
    assert world.project.promoted_parameter_set is None

    again = lead.post(url(world, f"{iteration['id']}/close/"), {}, format="json")
    assert again.status_code == 409
    assert AccuracyRecord.objects.filter(iteration_id=iteration["id"]).count() == 1


def test_a_promoted_parameter_set_pre_aligns_the_next_iteration(world):
    lead = world.client("lead")
    dp = lead.post(
        f"/api/v1/projects/{world.project.pk}/parameter-sets/",
        {"name": "dp by hand", "params": {"aligner": "dp", "scoring": {"method": "rouge"}}},
        format="json",
    ).json()

    promoted = lead.post(
        url(world, f"{world.iteration.pk}/promote/"), {"parameter_set": dp["id"]}, format="json"
    )
    assert promoted.status_code == 200, promoted.json()
    opened = open_first(world).json()

    assert opened["parameter_set"] == dp["id"]
    assert opened["parameters"]["name"] == "dp by hand"
    world.iteration.refresh_from_db()
    assert world.iteration.promoted_parameter_set_id == dp["id"]


def test_bad_batches_are_refused_by_name_and_nothing_is_written(world):
    lead = world.client("lead")
    other = world.other_document.pk
    importing = make_document(world.project, name="half imported")
    importing.status = "importing"
    importing.save(update_fields=["status"])
    before = (Iteration.objects.count(), Job.objects.count())

    foreign = lead.post(url(world), {"documents": [other]}, format="json")
    empty = lead.post(url(world), {"documents": []}, format="json")
    unready = lead.post(url(world), {"documents": [importing.pk]}, format="json")
    stranger = open_first(
        world,
        assignments=[{"document": world.unassigned_document.pk, "annotators": [world.outsider.pk]}],
    )

    assert foreign.status_code == 400
    assert str(other) in foreign.json()["detail"]
    assert empty.status_code == 400
    assert "documents" in empty.json()
    assert unready.status_code == 400
    assert "half imported" in unready.json()["detail"]
    assert stranger.status_code == 400
    assert str(world.outsider.pk) in stranger.json()["detail"]
    assert (Iteration.objects.count(), Job.objects.count()) == before
    world.unassigned_document.refresh_from_db()
    assert world.unassigned_document.iteration_id is None


def test_only_one_iteration_is_open_at_a_time(world):
    assert open_first(world).status_code == 201
    second = make_document(world.project, name="next")

    refused = world.client("lead").post(url(world), {"documents": [second.pk]}, format="json")

    assert refused.status_code == 409
    assert "Iteration 2 is still open" in refused.json()["detail"]


def test_annotators_read_iterations_but_cannot_steer_them(world):
    iteration = open_first(world).json()
    annotator = world.client("annotator")

    assert annotator.get(url(world, f"{iteration['id']}/")).status_code == 200
    assert annotator.post(url(world, f"{iteration['id']}/close/"), {}).status_code == 403
    dashboard = annotator.get(f"/api/v1/projects/{world.project.pk}/dashboard/accuracy/")
    assert dashboard.status_code == 403


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"candidate": 1, "parameter_set": 1}, "not both"),
        ({"parameter_set": 999999}, "no parameter set 999999"),
        ({"candidate": 999999}, "no candidate 999999"),
    ],
)
def test_bad_promotions_name_the_problem(world, body, message):
    response = world.client("lead").post(
        url(world, f"{world.iteration.pk}/promote/"), body, format="json"
    )

    assert response.status_code == 400
    assert message in str(response.json())


def test_the_first_iteration_starts_from_the_shipped_defaults_unless_the_lead_asks(world):
    lead = world.client("lead")
    diagonal = open_first(world).json()
    assert lead.post(url(world, f"{diagonal['id']}/cancel/")).status_code == 200

    shipped = lead.post(url(world), {"documents": [world.unassigned_document.pk]}, format="json")

    assert shipped.status_code == 201, shipped.json()
    assert shipped.json()["parameters"]["name"] == "shipped defaults"
    assert AlignmentParams.from_dict(shipped.json()["parameters"]["params"]) == load_params(
        new_document_defaults()
    )
    pre_align_run(job_id=shipped.json()["pre_align_job"]["id"])
    correct_and_submit(world, world.unassigned_document)
    closed = lead.post(url(world, f"{shipped.json()['id']}/close/"), {"tune": False}, format="json")
    assert closed.status_code == 200, closed.json()

    # Later iterations use the parameters in use, whatever the request says.
    second = make_document(world.project, name="second")
    later = lead.post(
        url(world),
        {"documents": [second.pk], "starting_parameters": "diagonal"},
        format="json",
    )
    assert later.json()["parameters"]["name"] == "shipped defaults"
    unknown = lead.post(
        url(world), {"documents": [second.pk], "starting_parameters": "random"}, format="json"
    )
    assert unknown.status_code == 400
    assert "starting_parameters" in unknown.json()
