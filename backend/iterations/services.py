from django.db import transaction
from django.db.models import Max

from backend.audit.services import record_event
from backend.iterations.models import Iteration
from backend.projects.models import Project


@transaction.atomic
def iteration_create(*, actor, project: Project, name: str = "") -> Iteration:
    Project.objects.select_for_update().filter(pk=project.pk).first()
    last = Iteration.objects.filter(project=project).aggregate(last=Max("number"))["last"] or 0
    iteration = Iteration.objects.create(
        project=project, number=last + 1, name=name, created_by=actor
    )
    record_event(
        actor=actor,
        action="iteration.create",
        target=iteration,
        project=project,
        number=iteration.number,
    )
    return iteration
