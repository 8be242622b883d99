from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from backend.audit.services import record_event
from backend.core.errors import Conflict, InvalidInput
from backend.core.events import publish
from backend.projects.events import ProjectCreated
from backend.projects.models import Membership, Project, Role
from backend.projects.selectors import no_such_parameter_set

PROJECT_FIELDS = ("name", "description", "language", "settings")


@transaction.atomic
def project_create(
    *, creator: User, name: str, kind: str = Project.Kind.MEETING, **fields: Any
) -> Project:
    """The creator becomes the project's first lead, so that nobody is locked out of it. The
    apps above set the project up in the same transaction (a talk project starts with
    TalkSumm's HMM promoted: backend/alignments/receivers.py)."""
    project = Project.objects.create(name=name, kind=kind, created_by=creator, **_known(fields))
    Membership.objects.create(project=project, user=creator, role=Role.LEAD)
    record_event(actor=creator, action="project.create", target=project, project=project, kind=kind)
    publish(ProjectCreated(project=project, creator=creator))
    return project


@transaction.atomic
def project_update(*, actor: User, project: Project, **fields: Any) -> Project:
    """`promoted_parameter_set` (an id, or None for the diagonal aligner), when given, is
    promoted by `parameter_set_promote`, the one way a project's promoted set changes; the
    other fields are recorded as one update."""
    if "promoted_parameter_set" in fields:
        chosen = fields["promoted_parameter_set"]
        parameter_set_promote(
            actor=actor,
            project=project,
            parameter_set=None
            if chosen is None
            else _parameter_set_of(project, chosen, field="promoted_parameter_set"),
        )
    changes = _known(fields)
    if not changes and "promoted_parameter_set" in fields:
        return project
    for field, value in changes.items():
        setattr(project, field, value)
    project.save()
    record_event(
        actor=actor,
        action="project.update",
        target=project,
        project=project,
        fields=sorted(changes),
    )
    return project


@transaction.atomic
def parameter_set_promote(
    *, actor: User, project: Project, parameter_set: Any, iteration_number: int | None = None
) -> Project:
    """From now on, new pre-alignments in the project use `parameter_set` (the diagonal
    aligner again when None). Promoted from a project's settings or after an iteration
    (`iteration_number`, which the audit event names), it is the same act, audited alike.
    `parameter_set` is a backend.alignments `ParameterSet`, typed `Any` because that app sits
    above this one."""
    if parameter_set is not None and parameter_set.project_id != project.pk:
        raise InvalidInput(
            no_such_parameter_set(project.pk, parameter_set.pk), field="parameter_set"
        )
    Project.objects.filter(pk=project.pk).update(
        promoted_parameter_set=parameter_set, updated_at=timezone.now()
    )
    project.promoted_parameter_set = parameter_set
    record_event(
        actor=actor,
        action="parameter_set.promote",
        target=parameter_set if parameter_set is not None else project,
        project=project,
        iteration=iteration_number,
        name=parameter_set.name if parameter_set is not None else None,
    )
    return project


def _parameter_set_of(project: Project, parameter_set_id: int, field: str) -> Any:
    parameter_set = project.parameter_sets.filter(pk=parameter_set_id).first()
    if parameter_set is None:
        raise InvalidInput(no_such_parameter_set(project.pk, parameter_set_id), field=field)
    return parameter_set


@transaction.atomic
def project_delete(*, actor: User, project: Project) -> None:
    record_event(actor=actor, action="project.delete", target=project, name=project.name)
    project.delete()


@transaction.atomic
def membership_create(
    *,
    actor: User,
    project: Project,
    role: str,
    user_id: int | None = None,
    username: str | None = None,
) -> Membership:
    """Add a user, named by id or by username (what a lead knows of a colleague)."""
    if (user_id is None) == (username is None):
        raise InvalidInput(
            "Name the new member by `username` or by `user` id, one of the two.", field="user"
        )
    active = get_user_model().objects.filter(is_active=True)
    if username is not None:
        user = active.filter(username=username).first()
        if user is None:
            raise InvalidInput(f"There is no active user named {username!r}.", field="username")
    else:
        assert user_id is not None  # checked above: one of the two names the member
        user = active.filter(pk=user_id).first()
        if user is None:
            raise InvalidInput(f"There is no active user {user_id}.", field="user")
    if Membership.objects.filter(project=project, user=user).exists():
        raise Conflict(f"{user.username} is already a member of this project.")
    membership = Membership.objects.create(project=project, user=user, role=role)
    record_event(
        actor=actor,
        action="membership.create",
        target=membership,
        project=project,
        user=user.username,
        role=role,
    )
    return membership


@transaction.atomic
def membership_update(*, actor: User, membership: Membership, role: str) -> Membership:
    membership = Membership.objects.select_for_update().get(pk=membership.pk)
    if membership.role == Role.LEAD and role != Role.LEAD:
        _keep_a_lead(membership)
    membership.role = role
    membership.save(update_fields=["role"])
    record_event(
        actor=actor,
        action="membership.update",
        target=membership,
        project=membership.project,
        role=role,
    )
    return membership


@transaction.atomic
def membership_delete(*, actor: User, membership: Membership) -> None:
    membership = Membership.objects.select_for_update().get(pk=membership.pk)
    if membership.role == Role.LEAD:
        _keep_a_lead(membership)
    record_event(
        actor=actor,
        action="membership.delete",
        target=membership,
        project=membership.project,
        user=membership.user.username,
    )
    membership.delete()


def _keep_a_lead(membership: Membership) -> None:
    """A project without a lead could only be rescued by an administrator."""
    other_leads = Membership.objects.filter(project_id=membership.project_id, role=Role.LEAD)
    if not other_leads.exclude(pk=membership.pk).exists():
        raise InvalidInput("A project keeps at least one lead; make someone else lead first.")


def _known(fields: dict[str, Any]) -> dict[str, Any]:
    return {name: fields[name] for name in PROJECT_FIELDS if name in fields}
