"""The documentation the pages' Help link leads to, served by the app itself."""

from pathlib import Path

import pytest
from django.conf import settings


@pytest.mark.django_db
def test_help_lists_the_docs_and_serves_each_as_text(client):
    index = client.get("/help/")
    page = client.get("/help/leading.md")

    assert index.status_code == 200
    assert b'<a href="leading.md">leading.md</a>' in index.content
    assert page.status_code == 200
    assert page["Content-Type"] == "text/plain; charset=utf-8"
    assert b"".join(page.streaming_content) == (Path(settings.DOCS_DIR) / "leading.md").read_bytes()


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["missing.md", "..%2Fsettings.md", "README.md"])
def test_only_existing_doc_pages_are_served(client, name):
    assert client.get(f"/help/{name}").status_code == 404
