"""`__in` with a list of integers: the same rows on every database, and on PostgreSQL one
array parameter (`= ANY(%s)`) whatever the list's length (backend/core/lookups.py)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from backend.documents.models import Document, TranscriptTurn
from backend.projects.models import Project
from tests.domain import make_document

pytestmark = pytest.mark.django_db


@pytest.fixture
def documents():
    project = Project.objects.create(name="lookups")
    return [make_document(project, name=f"meeting {index}", turns=3) for index in range(4)]


def read(query) -> tuple[list, list[str]]:
    with CaptureQueriesContext(connection) as queries:
        rows = list(query)
    return rows, [query["sql"] for query in queries.captured_queries]


def test_integer_lists_select_the_same_rows_as_one_array_on_postgresql(documents):
    first, second, third, _ = documents
    wanted = [third.pk, first.pk, third.pk, None]

    by_id, sql = read(Document.objects.filter(pk__in=wanted).order_by("pk"))
    by_foreign_key, _ = read(
        TranscriptTurn.objects.filter(document_id__in=wanted).values_list("document_id", flat=True)
    )
    by_instance, _ = read(
        TranscriptTurn.objects.filter(document__in=[first, second]).values_list(
            "document_id", flat=True
        )
    )

    assert by_id == [first, third]
    assert sorted(by_foreign_key) == sorted([first.pk] * 3 + [third.pk] * 3)
    assert sorted(by_instance) == sorted([first.pk] * 3 + [second.pk] * 3)
    if connection.vendor == "postgresql":
        (statement,) = sql
        assert "= ANY(" in statement
        assert " IN (" not in statement


def test_what_is_not_a_list_of_integers_keeps_djangos_in(documents):
    first = documents[0]

    by_name, sql = read(Document.objects.filter(name__in=["meeting 0", "meeting 9"]))
    by_subquery, _ = read(Document.objects.filter(pk__in=Document.objects.filter(pk=first.pk)))

    assert by_name == [first]
    assert by_subquery == [first]
    assert " IN (" in sql[0]
    assert Document.objects.filter(pk__in=[]).count() == 0
    assert Document.objects.filter(pk__in=[None]).count() == 0
