"""Before saving a podcast project's settings, a lead sees what they would do to the episodes
already imported: windows are cut at import, so those keep theirs; salience labels are
computed on every read, so they follow at once (the talk side: tests/talks/)."""

import pytest

from backend.documents.models import Document
from tests.talks.test_settings_preview import preview

pytestmark = pytest.mark.django_db


def test_a_podcasts_windows_need_a_new_import_and_its_labels_follow_at_once(podcasts):
    podcasts.add_episode("first")
    podcasts.add_episode("second")
    Document.objects.update(status=Document.Status.IMPORTED)
    client = podcasts.client()

    windows = preview(client, podcasts.project, {"window_seconds": 60}).json()["effects"]
    labels = preview(client, podcasts.project, {"salience_tau": 0.5}).json()["effects"]

    assert [(e["setting"], e["documents"], e["action"]) for e in windows] == [
        ("transcript_unit", 2, "reimport")
    ]
    assert "cut into 60-second windows" in windows[0]["summary"]
    assert [(e["setting"], e["documents"], e["action"]) for e in labels] == [
        ("salience", 2, "none")
    ]
