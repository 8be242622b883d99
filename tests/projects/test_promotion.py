"""A project's promoted parameter set changes one way, whether the lead promotes it in the
project's settings (PATCH) or after an iteration: the same service, the same audit event."""

from backend.alignments.services.pre_alignments import parameter_set_get_or_create
from backend.audit.models import AuditEvent
from backend.projects.models import Project


def promotions(project) -> list[tuple[str, dict]]:
    events = AuditEvent.objects.filter(project=project).exclude(action="parameter_set.create")
    return [(event.action, event.details) for event in events.order_by("id")]


def test_promoting_in_the_settings_and_after_an_iteration_is_one_audited_act(world):
    lead = world.client("lead")
    project_url = f"/api/v1/projects/{world.project.pk}/"
    by_hand = parameter_set_get_or_create(
        project=world.project, name="by hand", params={"aligner": "dp"}, engine_version="test"
    )
    tuned = parameter_set_get_or_create(
        project=world.project, name="tuned", params={"aligner": "gapped"}, engine_version="test"
    )

    patched = lead.patch(project_url, {"promoted_parameter_set": by_hand.pk}, format="json")
    after = lead.post(
        f"{project_url}iterations/{world.iteration.pk}/promote/",
        {"parameter_set": tuned.pk},
        format="json",
    )
    unpromoted = lead.patch(project_url, {"promoted_parameter_set": None}, format="json")

    assert patched.status_code == 200, patched.json()
    assert patched.json()["promoted_parameter_set"] == by_hand.pk
    assert after.status_code == 200, after.json()
    assert unpromoted.json()["promoted_parameter_set"] is None
    assert Project.objects.get(pk=world.project.pk).promoted_parameter_set is None
    assert promotions(world.project) == [
        ("parameter_set.promote", {"iteration": None, "name": "by hand"}),
        ("parameter_set.promote", {"iteration": world.iteration.number, "name": "tuned"}),
        ("parameter_set.promote", {"iteration": None, "name": None}),
    ]


def test_another_projects_parameter_set_is_refused_as_if_it_did_not_exist(world):
    """The error text used to tell another project's set ("belongs to another project")
    from a missing one, so a lead could map other projects' ids."""
    foreign = parameter_set_get_or_create(
        project=world.other_project, name="theirs", params={}, engine_version="test"
    )
    missing = foreign.pk + 1000
    lead = world.client("lead")
    project_url = f"/api/v1/projects/{world.project.pk}/"
    requests = [
        ("patch", project_url, "promoted_parameter_set", {"name": "renamed"}),
        ("post", f"{project_url}iterations/{world.iteration.pk}/promote/", "parameter_set", {}),
        ("post", f"{project_url}pre-alignments/", "parameter_set", {"documents": [1]}),
    ]

    for method, url, field, rest in requests:
        answers = [
            getattr(lead, method)(url, {field: set_id, **rest}, format="json")
            for set_id in (foreign.pk, missing)
        ]

        assert [answer.status_code for answer in answers] == [400, 400], url
        assert answers[0].json() == {
            key: value.replace(str(missing), str(foreign.pk)) if isinstance(value, str) else value
            for key, value in answers[1].json().items()
        }, url
        assert answers[0].json()["detail"] == (
            f"Project {world.project.pk} has no parameter set {foreign.pk}."
        )
    project = Project.objects.get(pk=world.project.pk)
    assert (project.name, project.promoted_parameter_set) == ("A", None)
    assert promotions(world.project) == []
