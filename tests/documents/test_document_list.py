from tests.domain import make_document


def list_url(world) -> str:
    return f"/api/v1/projects/{world.project.pk}/documents/"


def names(response) -> list[str]:
    return [document["name"] for document in response.json()["results"]]


def test_an_annotator_lists_only_assigned_documents(world):
    assert names(world.client("annotator").get(list_url(world))) == ["assigned"]
    assert names(world.client("lead").get(list_url(world))) == ["assigned", "unassigned"]


def test_filters_by_status_assignee_iteration_and_text(world):
    lead = world.client("lead")
    iteration = lead.post(
        f"/api/v1/projects/{world.project.pk}/iterations/",
        {"documents": [world.unassigned_document.pk]},
        format="json",
    ).json()
    lead.patch(
        f"{list_url(world)}{world.unassigned_document.pk}/",
        {"name": "budget hearing"},
        format="json",
    )

    assert names(lead.get(list_url(world), {"status": "pre_aligned"})) == ["assigned"]
    assert names(lead.get(list_url(world), {"assignee": world.annotator.pk})) == ["assigned"]
    assert names(lead.get(list_url(world), {"iteration": iteration["id"]})) == ["budget hearing"]
    assert names(lead.get(list_url(world), {"iteration": "none"})) == ["assigned"]
    assert names(lead.get(list_url(world), {"search": "BUDGET"})) == ["budget hearing"]
    assert len(names(lead.get(list_url(world), {"search": "turn 3 words"}))) == 2


def test_pages_carry_a_count_and_links(world):
    for index in range(3):
        make_document(world.project, name=f"extra {index}")

    page = world.client("lead").get(list_url(world), {"page_size": 2, "page": 2}).json()

    assert page["count"] == 5
    assert len(page["results"]) == 2
    assert page["previous"]
    assert page["next"]


def test_bad_filters_are_named(world):
    lead = world.client("lead")

    assert "status" in lead.get(list_url(world), {"status": "done"}).json()["detail"]
    assert "iteration" in lead.get(list_url(world), {"iteration": "x"}).json()["detail"]


def test_assignees_must_be_members_and_iterations_of_this_project(world):
    lead = world.client("lead")
    url = f"{list_url(world)}{world.document.pk}/"

    outsider = lead.patch(url, {"assignees": [world.outsider.pk]}, format="json")
    foreign = lead.patch(url, {"iteration": 999999}, format="json")

    assert outsider.status_code == 400
    assert str(world.outsider.pk) in outsider.json()["detail"]
    assert foreign.status_code == 400
    assert list(world.document.assignees.all()) == [world.annotator]
