"""An open iteration never reaches a state the lead cannot leave: it can be cancelled, and
documents can be added to it; the pre-alignment job's body runs in-process, as in
test_lifecycle_api."""

import re

from backend.alignments.models import Annotation, PreAlignment
from backend.alignments.services.pre_alignments import pre_align_run
from backend.audit.models import AuditEvent
from backend.iterations.models import Iteration
from backend.jobs.models import Job
from tests.domain import make_document
from tests.iterations.test_lifecycle_api import correct_and_submit, open_first, url


def documents_url(world, document=None) -> str:
    suffix = f"{document.pk}/" if document else ""
    return f"/api/v1/projects/{world.project.pk}/documents/{suffix}"


def annotating(world) -> dict:
    iteration = open_first(world).json()
    pre_align_run(job_id=iteration["pre_align_job"]["id"])
    return iteration


def take_out(world, document):
    return world.client("lead").patch(
        documents_url(world, document), {"iteration": None}, format="json"
    )


def test_an_iteration_emptied_by_taking_its_last_document_out_is_filled_again(world):
    lead = world.client("lead")
    iteration = annotating(world)
    assert take_out(world, world.unassigned_document).status_code == 200

    refused_close = lead.post(url(world, f"{iteration['id']}/close/"), {}, format="json")
    assert refused_close.status_code == 409
    assert "no documents left" in refused_close.json()["detail"]
    newcomer = make_document(world.project, name="newcomer")
    refused_open = lead.post(url(world), {"documents": [newcomer.pk]}, format="json")
    assert refused_open.status_code == 409
    assert "close or cancel it" in refused_open.json()["detail"]

    added = lead.post(
        url(world, f"{iteration['id']}/documents/"),
        {
            "documents": [newcomer.pk],
            "assignments": [{"document": newcomer.pk, "annotators": [world.annotator.pk]}],
        },
        format="json",
    )

    assert added.status_code == 200, added.json()
    detail = added.json()
    assert detail["status"] == "open"
    assert [document["name"] for document in detail["documents"]] == ["newcomer"]
    assert detail["documents"][0]["assignees"] == [world.annotator.pk]
    job = Job.objects.get(pk=detail["pre_align_job"]["id"])
    assert job.pk != iteration["pre_align_job"]["id"]
    assert job.arguments["documents"] == [newcomer.pk]
    pre_align_run(job_id=job.pk)
    job.refresh_from_db()
    assert job.message == "1 document pre-aligned"
    assert lead.get(url(world, f"{iteration['id']}/")).json()["status"] == "annotating"
    assert PreAlignment.objects.filter(
        document=newcomer, parameter_set_id=iteration["parameter_set"]
    ).exists()
    correct_and_submit(world, newcomer)
    closed = lead.post(url(world, f"{iteration['id']}/close/"), {"tune": False}, format="json")
    assert closed.status_code == 200, closed.json()
    assert closed.json()["accuracy"]["human_turn_accuracy"]["count"] == 1


def test_adding_pre_aligns_only_what_lacks_the_iterations_pre_alignment(world):
    lead = world.client("lead")
    iteration = annotating(world)
    first, second = (make_document(world.project, name=name) for name in ("first", "second"))

    added = lead.post(
        url(world, f"{iteration['id']}/documents/"),
        {"documents": [second.pk, first.pk]},
        format="json",
    )

    assert added.status_code == 200, added.json()
    job = Job.objects.get(pk=added.json()["pre_align_job"]["id"])
    assert sorted(job.arguments["documents"]) == sorted([first.pk, second.pk])
    assert AuditEvent.objects.filter(action="iteration.add_documents").get().details[
        "documents"
    ] == [second.pk, first.pk]


def test_a_document_taken_out_and_put_back_keeps_its_pre_alignment_and_starts_no_job(world):
    lead = world.client("lead")
    iteration = annotating(world)
    document = world.unassigned_document
    pre_alignment = PreAlignment.objects.get(
        document=document, parameter_set_id=iteration["parameter_set"]
    )
    assert take_out(world, document).status_code == 200

    added = lead.post(
        url(world, f"{iteration['id']}/documents/"), {"documents": [document.pk]}, format="json"
    )

    assert added.status_code == 200, added.json()
    detail = added.json()
    assert [row["id"] for row in detail["documents"]] == [document.pk]
    assert detail["status"] == "annotating"
    assert detail["pre_align_job"]["id"] == iteration["pre_align_job"]["id"]
    assert (
        PreAlignment.objects.get(document=document, parameter_set_id=iteration["parameter_set"])
        == pre_alignment
    )
    assert Job.objects.filter(kind=Job.Kind.PRE_ALIGN).count() == 1


def test_a_cancelled_iteration_frees_its_documents_and_keeps_their_work(world):
    lead = world.client("lead")
    iteration = annotating(world)
    correct_and_submit(world, world.unassigned_document)

    cancelled = lead.post(url(world, f"{iteration['id']}/cancel/"))

    assert cancelled.status_code == 200, cancelled.json()
    body = cancelled.json()
    assert body["status"] == "cancelled"
    assert body["cancelled_at"] is not None
    assert body["cancelled_documents"] == [world.unassigned_document.pk]
    assert body["documents"] == []
    world.unassigned_document.refresh_from_db()
    assert world.unassigned_document.iteration_id is None
    assert Annotation.objects.get(document=world.unassigned_document).submitted_at is not None
    assert PreAlignment.objects.filter(document=world.unassigned_document).exists()
    event = AuditEvent.objects.get(action="iteration.cancel")
    assert event.details["documents"] == [world.unassigned_document.pk]

    reopened = lead.post(url(world), {"documents": [world.unassigned_document.pk]}, format="json")
    assert reopened.status_code == 201, reopened.json()
    assert reopened.json()["number"] == iteration["number"] + 1
    listed = lead.get(url(world)).json()["results"]
    assert [(item["number"], item["status"]) for item in listed][-2:] == [
        (iteration["number"], "cancelled"),
        (iteration["number"] + 1, "open"),
    ]


def test_cancelling_stops_the_pre_alignment_still_queued(world):
    iteration = open_first(world).json()

    cancelled = world.client("lead").post(url(world, f"{iteration['id']}/cancel/"))

    assert cancelled.status_code == 200, cancelled.json()
    assert Job.objects.get(pk=iteration["pre_align_job"]["id"]).status == Job.Status.CANCELLED


def test_only_an_open_iteration_is_cancelled_or_added_to(world):
    lead = world.client("lead")
    newcomer = make_document(world.project, name="newcomer")
    iteration = annotating(world)
    assert lead.post(url(world, f"{iteration['id']}/cancel/")).status_code == 200

    for target, state in ((world.iteration.pk, "closed"), (iteration["id"], "cancelled")):
        again = lead.post(url(world, f"{target}/cancel/"))
        added = lead.post(
            url(world, f"{target}/documents/"), {"documents": [newcomer.pk]}, format="json"
        )
        assert again.status_code == 409
        assert f"is {state}; only an open iteration can cancel" in again.json()["detail"]
        assert added.status_code == 409
        assert "only an open iteration can add documents to" in added.json()["detail"]
    newcomer.refresh_from_db()
    assert newcomer.iteration_id is None


def test_bad_additions_are_refused_in_words_and_nothing_is_written(world):
    lead = world.client("lead")
    queued = open_first(world).json()
    newcomer = make_document(world.project, name="newcomer")
    still_running = lead.post(
        url(world, f"{queued['id']}/documents/"), {"documents": [newcomer.pk]}, format="json"
    )
    assert still_running.status_code == 409
    assert "still being pre-aligned" in still_running.json()["detail"]
    pre_align_run(job_id=queued["pre_align_job"]["id"])
    closed_member = make_document(world.project, name="in the closed one")
    closed_member.iteration = world.iteration
    closed_member.save(update_fields=["iteration"])
    before = (Job.objects.count(), AuditEvent.objects.count())

    taken = lead.post(
        url(world, f"{queued['id']}/documents/"),
        {"documents": [closed_member.pk, world.unassigned_document.pk]},
        format="json",
    )
    empty = lead.post(url(world, f"{queued['id']}/documents/"), {"documents": []}, format="json")
    annotator = world.client("annotator").post(
        url(world, f"{queued['id']}/documents/"), {"documents": [newcomer.pk]}, format="json"
    )

    assert taken.status_code == 400
    assert taken.json()["detail"] == (
        "Documents 'in the closed one' and 'unassigned' already belong to an iteration; "
        "a document is corrected once."
    )
    assert not re.search(r"\[|\]", taken.json()["detail"])
    assert empty.status_code == 400
    assert annotator.status_code == 403
    assert (Job.objects.count(), AuditEvent.objects.count()) == before
    newcomer.refresh_from_db()
    assert newcomer.iteration_id is None


def test_documents_join_iterations_only_through_the_iteration(world):
    lead = world.client("lead")
    iteration = annotating(world)
    newcomer = make_document(world.project, name="newcomer")

    joined = lead.patch(
        documents_url(world, newcomer), {"iteration": iteration["id"]}, format="json"
    )

    assert joined.status_code == 400
    assert "/documents/, which pre-aligns them" in joined.json()["iteration"][0]
    newcomer.refresh_from_db()
    assert newcomer.iteration_id is None


def test_a_closed_iterations_batch_stays_whole(world):
    closed_member = make_document(world.project, name="recorded")
    closed_member.iteration = world.iteration
    closed_member.save(update_fields=["iteration"])

    refused = take_out(world, closed_member)

    assert refused.status_code == 409
    assert "iteration 1, which is closed" in refused.json()["detail"]
    closed_member.refresh_from_db()
    assert closed_member.iteration_id == world.iteration.pk


def test_a_document_in_an_open_iteration_is_taken_out_before_it_is_deleted(world):
    lead = world.client("lead")
    annotating(world)

    refused = lead.delete(documents_url(world, world.unassigned_document))
    assert refused.status_code == 409
    assert "take it out of the iteration before deleting it" in refused.json()["detail"]
    assert take_out(world, world.unassigned_document).status_code == 200
    deleted = lead.delete(documents_url(world, world.unassigned_document))

    assert deleted.status_code == 204
    assert not Iteration.objects.filter(documents__pk=world.unassigned_document.pk).exists()
