"""Real responses of the API's JSON endpoints match the published schema: every GET that
answers JSON is requested on a project with closed iterations, a tuning run, annotations and
jobs, and validated (objects closed: an undeclared key fails too)."""

import pytest
from django.utils import timezone

from backend.accounts.services import api_token_create
from backend.alignments.services.annotations import AssignmentOperation, annotation_apply
from backend.iterations.services import iteration_tune_again
from backend.jobs.models import Job
from backend.vectors.models import WordVectors
from tests.dashboards.test_dashboards import corrected_iteration
from tests.domain import build_world, make_rating_study
from tests.openapi import assert_matches_schema, openapi_schema

FILE_EXPORTS = {
    "pairs.jsonl",
    "pairs.csv",
    "parallel.zip",
    "huggingface.zip",
    "summaries.jsonl",
    "salience.jsonl",
}
"""Exports whose body is a file, not JSON: their media types are checked below."""


@pytest.fixture
def world(db):
    world = build_world()
    first = corrected_iteration(world, {"a": (world.annotator, 3, 60), "b": (world.lead, 0, 5)})
    iteration_tune_again(actor=world.lead, iteration=first, grid={"dp.power": [1.0, 2.0]})
    first.tuning_run.candidates.filter(index=0).update(segment_accuracy=50.0, rank=1)
    annotation_apply(
        annotator=world.annotator,
        document=world.document,
        version=0,
        operations=[AssignmentOperation("unalign", 0, 2)],
        seconds_spent=12,
    )
    Job.objects.filter(pk=world.job.pk).update(
        status=Job.Status.SUCCEEDED,
        finished_at=timezone.now(),
        result={"document": world.document.pk, "segments": 4, "turns": 10, "words": 40},
    )
    WordVectors.objects.create(
        project=world.project,
        training_key="k",
        settings={"dimensions": 100, "window": 5},
        document_count=1,
        sentence_count=2,
        vocabulary_size=3,
        dimensions=100,
    )
    api_token_create(user=world.lead, name="ci")
    world.first = first
    world.study = make_rating_study(world.project, world.document, world.lead, rated=True)
    return world


def json_get_paths(world) -> dict[str, str]:
    """Each JSON GET operation of the schema, with ids of `world` filled in."""
    ids = {
        "project_id": world.project.pk,
        "document_id": world.document.pk,
        "iteration_id": world.first.pk,
        "job_id": world.job.pk,
        "run_id": world.first.tuning_run.pk,
        "study_id": world.study.pk,
        "name": "leading",
    }
    paths = {}
    for template, operations in openapi_schema()["paths"].items():
        if "get" not in operations or template.rsplit("/", 1)[-1] in FILE_EXPORTS:
            continue
        if not _declares_json(operations["get"]):
            continue
        if template.endswith(("/schema/", "/docs/")):
            continue
        paths[template] = template.format(**ids)
    paths["/api/v1/help/search/"] += "?q=rating+study"
    paths["/api/v1/projects/{project_id}/iterations/proposal/"] += "?policy=diversity&size=2"
    return paths


def _declares_json(operation: dict) -> bool:
    """False for a GET whose 200 is a file of another media type (a document's audio)."""
    content = operation["responses"].get("200", {}).get("content")
    return content is None or "application/json" in content


def test_every_json_get_answers_what_the_schema_declares(world):
    lead = world.client("lead")
    record_path = f"/api/v1/projects/{world.project.pk}/iterations/{world.first.pk}/documents/"
    record_document = world.first.records.first().document_id
    checked = []

    for template, path in json_get_paths(world).items():
        if template.endswith("/documents/{document_id}/") and "/iterations/" in template:
            path = f"{record_path}{record_document}/"
        response = lead.get(path)
        assert response.status_code == 200, (path, response.content[:300])
        assert_matches_schema(response)
        checked.append(template)

    assert "/api/v1/projects/{project_id}/documents/{document_id}/editor/" in checked
    assert "/api/v1/projects/{project_id}/dashboard/jobs/" in checked


def test_the_editor_payload_and_its_conflicts_match_the_schema(world):
    annotator = world.client("annotator")
    url = f"/api/v1/projects/{world.project.pk}/documents/{world.document.pk}/"

    saved = assert_matches_schema(annotator.get(f"{url}editor/"))
    stale = annotator.post(
        f"{url}annotation/",
        {"version": 0, "operations": [{"action": "reset", "first_turn": 0, "last_turn": 1}]},
        format="json",
    )
    unsaved = assert_matches_schema(world.client("lead").get(f"{url}editor/"))

    assert saved["annotation"]["version"] == 1
    assert saved["pre_alignment"] is not None
    assert len(saved["turns"]) == 10
    assert saved["turns"][0]["start"] == 0
    assert stale.status_code == 409
    assert assert_matches_schema(stale, "POST")["current"]["version"] == 1
    assert unsaved["annotation"]["id"] is None


def test_paginated_lists_are_declared_as_pages(world):
    lead = world.client("lead")

    page = assert_matches_schema(
        lead.get(f"/api/v1/projects/{world.project.pk}/documents/", {"page_size": 1})
    )

    assert page["count"] == 4
    assert len(page["results"]) == 1
    assert page["next"] is not None


def test_exports_declare_their_media_types(world):
    lead = world.client("lead")
    operations = openapi_schema()["paths"]

    for name, media_type in [
        ("pairs.jsonl", "application/x-ndjson"),
        ("pairs.csv", "text/csv"),
        ("parallel.zip", "application/zip"),
        ("huggingface.zip", "application/zip"),
        ("public-meetings.json", "application/json"),
    ]:
        response = lead.get(f"/api/v1/projects/{world.project.pk}/exports/{name}")
        declared = operations[f"/api/v1/projects/{{project_id}}/exports/{name}"]["get"]
        if name == "huggingface.zip" and response.status_code == 409:
            # This world has no gold: a dataset of no record is refused (docs/exports.md).
            assert "409" in declared["responses"]
            assert_matches_schema(response)
            continue

        assert response.status_code == 200
        assert response["Content-Type"].split(";")[0] == media_type
        assert list(declared["responses"]["200"]["content"]) == [media_type]
        if media_type == "application/json":
            assert_matches_schema(response)
