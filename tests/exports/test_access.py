"""Exports over token authentication: leads only, each one in the audit trail, and a
streamed export read back by an HTTP client from a running server."""

import json

import pytest
import requests

from backend.accounts.services import api_token_create
from backend.audit.models import AuditEvent
from tests.exports.conftest import build_corpus, new_project, records, upload


def token_headers(user) -> dict:
    _, key = api_token_create(user=user, name="exports")
    return {"HTTP_AUTHORIZATION": f"Token {key}"}


def test_a_lead_exports_with_a_token_and_the_audit_trail_records_it(corpus):
    client = corpus.client()
    client.logout()

    response = client.get(
        f"{corpus.url}/exports/pairs.jsonl", {"min_words": 5}, **token_headers(corpus.lead)
    )

    assert records(response)
    event = AuditEvent.objects.filter(action="export.download").get()
    assert (event.actor, event.project, event.target_id) == (
        corpus.lead,
        corpus.project,
        str(corpus.project.pk),
    )
    assert event.details["format"] == "pairs.jsonl"
    assert event.details["options"]["min_words"] == 5


def test_an_annotators_token_is_refused_and_leaves_no_export_event(corpus):
    client = corpus.client()
    client.logout()

    response = client.get(f"{corpus.url}/exports/pairs.jsonl", **token_headers(corpus.annotator))

    assert response.status_code == 403
    assert not AuditEvent.objects.filter(action="export.download").exists()


def test_an_import_is_in_the_audit_trail(corpus):
    exported = b"".join(corpus.client().get(f"{corpus.url}/exports/public-meetings.json"))
    before = AuditEvent.objects.filter(action="document.import_public_meetings_file").count()

    target = new_project(corpus.lead)
    assert upload(corpus.client(), target, exported).status_code == 201

    event = AuditEvent.objects.filter(action="document.import_public_meetings_file").last()
    assert before == 0
    assert event.project == target
    assert event.details["gold"] == len(corpus.gold)


@pytest.mark.django_db(transaction=True)
def test_a_client_reads_a_streamed_export_line_by_line_from_a_running_server(live_server):
    corpus = build_corpus()
    _, key = api_token_create(user=corpus.lead, name="client")
    url = f"{live_server.url}/api/v1/projects/{corpus.project.pk}/exports/pairs.jsonl"

    with requests.get(
        url, headers={"Authorization": f"Token {key}"}, stream=True, timeout=60
    ) as response:
        lines = [json.loads(line) for line in response.iter_lines() if line]
        headers = response.headers

    expected = records(corpus.client().get(f"{corpus.url}/exports/pairs.jsonl"))
    assert response.status_code == 200
    assert "Content-Length" not in headers
    assert headers["Content-Disposition"] == (
        f'attachment; filename="project-{corpus.project.pk}-pairs.jsonl"'
    )
    assert lines == expected
