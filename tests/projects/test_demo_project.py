import json
import stat

import pytest
from django.core.management import call_command

from backend.alignments.models import PreAlignment
from backend.documents.models import Document
from backend.projects.models import Project


@pytest.mark.slow
@pytest.mark.django_db
def test_demo_project_is_created_once_with_stable_credentials(settings, tmp_path, capsys):
    settings.DATA_DIR = tmp_path

    call_command("demo_project")
    first = capsys.readouterr().out
    call_command("demo_project")
    second = capsys.readouterr().out

    assert first == second
    credentials = json.loads((tmp_path / "demo-credentials.json").read_text())
    assert f"demo-lead / {credentials['demo-lead']}" in first
    assert stat.S_IMODE((tmp_path / "demo-credentials.json").stat().st_mode) == 0o600
    project = Project.objects.get(name="Demo: public meetings")
    documents = Document.objects.filter(project=project)
    assert documents.count() == 3
    assert {document.turn_count for document in documents} == {33, 60, 65}
    assert all(document.status == Document.Status.PRE_ALIGNED for document in documents)
    assert all(
        [user.username for user in document.assignees.all()] == ["demo-annotator"]
        for document in documents
    )
    assert PreAlignment.objects.filter(document__project=project).count() == 3
    assert f"/projects/{project.pk}" in first
