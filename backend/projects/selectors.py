from django.contrib.auth.models import User
from django.db.models import OuterRef, QuerySet, Subquery

from backend.core.errors import NotFound
from backend.projects.models import Membership, Project


def _with_caller_role(projects: QuerySet[Project], user: User) -> QuerySet[Project]:
    """Each project's `caller_role`: the user's role in it, None where they are no member."""
    role = Membership.objects.filter(project=OuterRef("pk"), user=user).values("role")[:1]
    return projects.annotate(caller_role=Subquery(role))


def project_list(*, user: User) -> QuerySet[Project]:
    """Superusers administer every project, so they see every project."""
    projects = _with_caller_role(Project.objects.all(), user)
    if not user.is_superuser:
        projects = projects.filter(memberships__user=user)
    return projects.select_related("promoted_parameter_set")


def project_get(*, project_id: int, caller: User | None = None) -> Project:
    """With `caller`, the project carries their role as `caller_role`."""
    projects = Project.objects.select_related("promoted_parameter_set")
    if caller is not None:
        projects = _with_caller_role(projects, caller)
    project = projects.filter(pk=project_id).first()
    if project is None:
        raise NotFound(f"There is no project {project_id}.")
    return project


def membership_list(*, project_id: int) -> QuerySet[Membership]:
    return Membership.objects.filter(project_id=project_id).select_related("user")


def membership_get(*, project_id: int, membership_id: int) -> Membership:
    membership = membership_list(project_id=project_id).filter(pk=membership_id).first()
    if membership is None:
        raise NotFound(f"Project {project_id} has no membership {membership_id}.")
    return membership


def member_role(*, project: Project, user: User) -> str | None:
    return (
        Membership.objects.filter(project=project, user=user).values_list("role", flat=True).first()
    )


def report_kind(project: Project) -> str:
    """What the project's reports are, as the upload checks name them."""
    kinds = {Project.Kind.TALK: "paper", Project.Kind.PODCAST: "description"}
    return kinds.get(Project.Kind(project.kind), "report")


def no_such_parameter_set(project_id: int, parameter_set_id: int) -> str:
    return f"Project {project_id} has no parameter set {parameter_set_id}."
