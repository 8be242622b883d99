"""The alignments' reactions to changes below them (backend/core/events.py)."""

from backend.alignments.services.pre_alignments import talk_parameter_set
from backend.core.events import subscribe
from backend.projects.events import ProjectCreated
from backend.projects.models import Project
from backend.projects.services import parameter_set_promote


def _promote_talk_aligner(event: ProjectCreated) -> None:
    """A talk project starts with TalkSumm's HMM promoted, so that its first pre-alignment
    (and every one until the lead promotes another set) uses it."""
    project = event.project
    if project.kind != Project.Kind.TALK:
        return
    parameter_set_promote(
        actor=event.creator, project=project, parameter_set=talk_parameter_set(project)
    )
    project.refresh_from_db(fields=["promoted_parameter_set"])


def subscribe_receivers() -> None:
    subscribe(ProjectCreated, _promote_talk_aligner)
