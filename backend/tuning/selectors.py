from django.db.models import F, QuerySet

from backend.core.errors import InvalidInput, NotFound
from backend.tuning.models import TuningCandidate, TuningRun

CANDIDATE_ORDERINGS = {
    "rank": [F("rank").asc(nulls_last=True)],
    "objective": [F("objective").desc(nulls_last=True)],
    "segment_accuracy": [F("segment_accuracy").desc(nulls_last=True)],
    "word_accuracy": [F("word_accuracy").desc(nulls_last=True)],
    "window_diff": [F("window_diff").asc(nulls_last=True)],
}
"""Each metric sorts best first: accuracies and the objective down, WindowDiff up."""


def tuning_run_list(*, project_id: int) -> QuerySet[TuningRun]:
    return TuningRun.objects.filter(project_id=project_id).select_related("job", "best")


def tuning_run_get(*, project_id: int, run_id: int) -> TuningRun:
    run = tuning_run_list(project_id=project_id).filter(pk=run_id).first()
    if run is None:
        raise NotFound(f"Project {project_id} has no tuning run {run_id}.")
    return run


def tuning_candidates(*, run: TuningRun, ordering: str = "rank") -> QuerySet[TuningCandidate]:
    if ordering not in CANDIDATE_ORDERINGS:
        raise InvalidInput(
            f"Unknown ordering {ordering!r}; use one of {', '.join(CANDIDATE_ORDERINGS)}.",
            field="ordering",
        )
    return run.candidates.order_by(*CANDIDATE_ORDERINGS[ordering], "index")
