"""Role permissions, composable with `|` and `&` the way doccano combines them.

Every project-scoped URL carries `project_id`; the caller's role there is read once per
request and cached on it. A non-member is refused the same way whether or not the project
exists, so ids cannot be probed.
"""

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from rest_framework.permissions import SAFE_METHODS, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.views import APIView

from backend.projects.models import Membership, Role

_ROLE_CACHE = "_tandem_project_roles"


def project_role(request: Request, project_id: int) -> str | None:
    cache = request.__dict__.setdefault(_ROLE_CACHE, {})
    if project_id not in cache:
        cache[project_id] = (
            Membership.objects.filter(project_id=project_id, user_id=request.user.pk)
            .values_list("role", flat=True)
            .order_by()  # one row at most: the model's ordering would join projects and users
            .first()
            if request.user.is_authenticated
            else None
        )
    return cache[project_id]


class _HasProjectRole(BasePermission):
    roles: tuple[str, ...] = ()

    def has_permission(self, request: Request, view: APIView) -> bool:
        project_id = view.kwargs.get("project_id")
        return project_id is not None and project_role(request, project_id) in self.roles


class IsProjectMember(_HasProjectRole):
    message = "You are not a member of this project."
    roles = (Role.LEAD, Role.CURATOR, Role.ANNOTATOR)


class IsProjectLead(_HasProjectRole):
    message = "Only a lead of this project may do this."
    roles = (Role.LEAD,)


class IsProjectCurator(_HasProjectRole):
    message = "Only a lead or a curator of this project may do this."
    roles = (Role.CURATOR,)


class IsProjectAnnotator(_HasProjectRole):
    message = "Only an annotator of this project may do this."
    roles = (Role.ANNOTATOR,)


class IsSuperuser(BasePermission):
    message = "Only an administrator may do this."

    def has_permission(self, request: Request, view: APIView) -> bool:
        return bool(request.user and request.user.is_superuser)


def may_create_projects(user: User | AnonymousUser) -> bool:
    """Whoever creates a project becomes its lead: TANDEM_PROJECT_CREATORS says who may."""
    if not (user and user.is_authenticated):
        return False
    return settings.TANDEM_PROJECT_CREATORS == "everyone" or user.is_staff or user.is_superuser


class MayCreateProjectsOrReads(BasePermission):
    message = (
        "Only staff create projects on this instance (TANDEM_PROJECT_CREATORS=staff); ask an "
        "administrator to create one and make you its lead."
    )

    def has_permission(self, request: Request, view: APIView) -> bool:
        return request.method in SAFE_METHODS or may_create_projects(request.user)


MEMBER_OR_ADMIN = [IsAuthenticated & (IsSuperuser | IsProjectMember)]
LEAD_OR_ADMIN = [IsAuthenticated & (IsSuperuser | IsProjectLead)]
CURATOR_LEAD_OR_ADMIN = [IsAuthenticated & (IsSuperuser | IsProjectLead | IsProjectCurator)]


def sees_only_assigned(request: Request, project_id: int) -> bool:
    """Annotators see the documents assigned to them; curators, leads and administrators
    see all (curators to adjudicate them)."""
    return not request.user.is_superuser and project_role(request, project_id) == Role.ANNOTATOR


def may_adjudicate(request: Request, project_id: int) -> bool:
    """Leads, curators and administrators read every annotation and adjudicate."""
    return request.user.is_superuser or project_role(request, project_id) in (
        Role.LEAD,
        Role.CURATOR,
    )
