"""4xx bodies name the problem as a person reads it: lists of ids and names in words, never
as Python writes them ("[7, 8]", "['a', 'b']")."""

import re

import pytest

from tests.domain import build_world, make_document

PYTHON_LIST = re.compile(r"\[[^\]]*\]")


@pytest.fixture
def world(db):
    return build_world()


def test_lists_in_error_messages_are_written_in_words(world):
    lead = world.client("lead")
    base = f"/api/v1/projects/{world.project.pk}"
    importing = [make_document(world.project, name=f"half {index}") for index in range(2)]
    for document in importing:
        document.status = "importing"
        document.save(update_fields=["status"])

    cases = {
        "Users 9998 and 9999 are not members": lead.patch(
            f"{base}/documents/{world.document.pk}/", {"assignees": [9998, 9999]}, format="json"
        ),
        f"Documents {importing[0].pk} and {importing[1].pk} are not imported yet": lead.post(
            f"{base}/pre-alignments/",
            {"parameter_set": _diagonal(lead, base), "documents": [d.pk for d in importing]},
            format="json",
        ),
        "Documents 'half 0' and 'half 1' are not imported": lead.post(
            f"{base}/iterations/", {"documents": [d.pk for d in importing]}, format="json"
        ),
    }

    for expected, response in cases.items():
        assert response.status_code == 400, response.json()
        detail = response.json()["detail"]
        assert expected in detail
        assert not PYTHON_LIST.search(detail), detail


def _diagonal(lead, base) -> int:
    created = lead.post(
        f"{base}/parameter-sets/", {"name": "d", "params": {"aligner": "diagonal"}}, format="json"
    )
    assert created.status_code == 201, created.json()
    return created.json()["id"]
