"""Schemathesis over every operation of the published schema: generated requests, valid and
not, from a lead of a populated project (ids in paths point at real objects, so requests get
past the 404). No response may be a server error, and every response the schema declares must
match it. TANDEM_FUZZ_EXAMPLES bounds the examples per operation (25 by default); the run is
derandomized, so CI sees the same requests every time."""

import os

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.urls import URLPattern, URLResolver, get_resolver
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance

from backend.accounts.services import api_token_create
from backend.tuning.models import TuningRun
from backend.vectors.models import WordVectors
from backend.wsgi import application
from tests.domain import build_world, make_word_vectors
from tests.openapi import openapi_schema
from tests.projects.test_permission_matrix import tuning_run

EXAMPLES = int(os.environ.get("TANDEM_FUZZ_EXAMPLES", "25"))


schema = schemathesis.openapi.from_dict(openapi_schema())
schema.app = application


@pytest.fixture
def world(db):
    """A populated project (with a tuning run that used its word vectors), and requests that
    keep the test's database connection (and its transaction) open, as Django's test
    client's do."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        world = build_world()
        run = tuning_run(world.project)
        run.word_vectors = make_word_vectors(world.project)
        run.save(update_fields=["word_vectors"])
        yield world
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def lead_key(world) -> str:
    return api_token_create(user=world.lead, name="fuzz")[1]


@pytest.fixture
def known_ids(world) -> dict[str, int]:
    """Real objects for the path's ids, read before any example deletes one."""
    return {
        "project_id": world.project.pk,
        "document_id": world.document.pk,
        "iteration_id": world.iteration.pk,
        "job_id": world.job.pk,
        "membership_id": world.annotator_membership.pk,
        "run_id": TuningRun.objects.get(project=world.project).pk,
        "vectors_id": WordVectors.objects.get(project=world.project).pk,
    }


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
)
def test_no_request_gets_a_server_error_or_an_undeclared_body(case, known_ids, lead_key):
    if case.path_parameters:
        for name in case.path_parameters:
            if name in known_ids:
                case.path_parameters[name] = known_ids[name]
    case.call_and_validate(
        headers={"Authorization": f"Token {lead_key}"},
        checks=[not_a_server_error, response_schema_conformance, content_type_conformance],
    )


def test_every_route_bounds_its_ids():
    """Django's `int` converter takes any length of digits, which overflows the database's
    integer columns (a 500 on SQLite); routes use the bounded `id` converter."""
    unbounded = []

    def walk(patterns, prefix=""):
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, route)
            elif isinstance(pattern, URLPattern) and "<int:" in route:
                unbounded.append(route)

    walk(get_resolver().url_patterns)
    assert unbounded == []
