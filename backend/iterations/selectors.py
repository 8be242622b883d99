from django.db.models import QuerySet

from backend.iterations.models import Iteration


def iteration_list(*, project_id: int) -> QuerySet[Iteration]:
    return Iteration.objects.filter(project_id=project_id)
