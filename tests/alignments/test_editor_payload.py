import pytest
from rest_framework.test import APIClient

from backend.curation.public_meetings import import_public_meeting
from backend.projects.models import Membership, Project, Role
from tests.domain import make_user

LARGEST_MEETING = "199073d27fc61f6a76cb1f9c1d977aa6"
MAX_QUERIES = 9
"""Nine today (the reading position is the latest), whatever the document's size. Speed is a
benchmark's business (bench/editor_speed.py); what a test can hold is that the payload costs
no query per turn or segment."""


@pytest.mark.slow
@pytest.mark.django_db
def test_the_largest_meeting_loads_in_one_request_with_a_fixed_number_of_queries(
    django_assert_max_num_queries,
):
    annotator = make_user("reader")
    project = Project.objects.create(name="big")
    Membership.objects.create(project=project, user=annotator, role=Role.ANNOTATOR)
    document = import_public_meeting(
        actor=None, project=project, meeting_id=LARGEST_MEETING, assignees=[annotator]
    )
    client = APIClient()
    client.force_login(annotator)
    url = f"/api/v1/projects/{project.pk}/documents/{document.pk}/editor/"
    client.get(url)

    with django_assert_max_num_queries(MAX_QUERIES):
        response = client.get(url)

    body = response.json()
    assert (len(body["turns"]), len(body["segments"])) == (845, 358)
    assert body["annotation"]["version"] == 0
