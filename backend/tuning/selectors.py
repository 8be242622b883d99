from collections import defaultdict

import numpy as np
from django.db.models import F, QuerySet

from backend.alignments.models import ParameterSet
from backend.core.errors import InvalidInput, NotFound
from backend.projects.models import Project
from backend.tuning.models import TuningCandidate, TuningRun, TuningSlice
from workers.align.metrics import MeetingScores

HIGHER_IS_BETTER = {
    "rank": False,
    "index": False,
    "objective": True,
    "segment_accuracy": True,
    "word_accuracy": True,
    "window_diff": False,
    "documents_evaluated": True,
}
"""What a candidate table sorts by, and which way is best: accuracies, the objective and the
number of documents scored are better high; rank, grid position and WindowDiff better low."""

CANDIDATE_ORDERINGS = [*HIGHER_IS_BETTER, *(f"-{name}" for name in HIGHER_IS_BETTER)]
"""`?ordering=<name>` lists the best first for that figure, `-<name>` the worst first, on
every endpoint that lists candidates."""


def tuning_run_list(*, project_id: int) -> QuerySet[TuningRun]:
    return TuningRun.objects.filter(project_id=project_id).select_related("job", "best")


def tuning_run_get(*, project_id: int, run_id: int) -> TuningRun:
    run = tuning_run_list(project_id=project_id).filter(pk=run_id).first()
    if run is None:
        raise NotFound(f"Project {project_id} has no tuning run {run_id}.")
    return run


def tuning_candidates(*, run: TuningRun, ordering: str = "rank") -> QuerySet[TuningCandidate]:
    """Candidates without the figure (dropped in an early stage, not evaluated yet) sort last
    either way, then by grid position."""
    name = ordering.removeprefix("-")
    if name not in HIGHER_IS_BETTER:
        raise InvalidInput(
            f"Cannot sort candidates by {ordering!r}; use one of {', '.join(HIGHER_IS_BETTER)} "
            "(best first), or the same with - before it (worst first).",
            field="ordering",
        )
    descending = HIGHER_IS_BETTER[name] != ordering.startswith("-")
    expression = F(name).desc(nulls_last=True) if descending else F(name).asc(nulls_last=True)
    return run.candidates.order_by(expression, "index")


def tuning_slice_job_id(*, slice_id: int) -> int | None:
    """The job a slice's task reports to, or None when the run was deleted meanwhile."""
    return TuningSlice.objects.filter(pk=slice_id).values_list("run__job_id", flat=True).first()


def tuning_run_job_id(*, run_id: int) -> int | None:
    return TuningRun.objects.filter(pk=run_id).values_list("job_id", flat=True).first()


def candidate_spreads(*, run_id: int) -> dict[int, dict[str, float | None]]:
    """Per candidate (by grid position): the standard deviation, across the gold documents it
    was scored on, of its segment accuracy, word accuracy and WindowDiff, in percentage points:
    how far one document's figure strays from the next, against which a lead weighs the gap
    between two candidates. None below two documents (for WindowDiff, two documents where it
    is defined). Read from the slices' per-document scores, which every candidate's figures
    are merged from."""
    per_document: dict[int, dict[str, MeetingScores]] = defaultdict(dict)
    slices = TuningSlice.objects.filter(run_id=run_id, results__isnull=False)
    for results in slices.values_list("results", flat=True):
        for item in results or ():
            for meeting, scores in item["per_document"]:
                per_document[item["candidate"]][meeting] = MeetingScores(**scores)
    return {index: _spread(list(scores.values())) for index, scores in per_document.items()}


def _spread(scores: list[MeetingScores]) -> dict[str, float | None]:
    figures = {
        "segment_accuracy": [score.segment_accuracy for score in scores],
        "word_accuracy": [score.word_accuracy for score in scores],
        "window_diff": [
            100.0 * score.windowdiff for score in scores if score.windowdiff is not None
        ],
    }
    return {
        name: float(np.std(values, ddof=1)) if len(values) > 1 else None
        for name, values in figures.items()
    }


def parameters_in_use(*, project: Project) -> ParameterSet | None:
    """What pre-aligns the project's next batch and what a tuning run must beat: the promoted
    parameter set, else the one the latest iteration (not cancelled) was pre-aligned with;
    None before the first iteration, when the lead chooses. The iterations are read through
    the project's relation to them: tuning sits below the iterations app, which starts the
    runs and then promotes their proposals."""
    if project.promoted_parameter_set_id is not None:
        return project.promoted_parameter_set
    latest = (
        project.iterations.filter(cancelled_at__isnull=True)
        .exclude(parameter_set=None)
        .select_related("parameter_set")
        .order_by("-number")
        .first()
    )
    return latest.parameter_set if latest else None
