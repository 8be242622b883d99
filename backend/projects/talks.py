"""A talk project's settings as the import, the pre-alignment and the editor read them, with
TalkSumm's defaults where the lead set nothing."""

from backend.projects.models import Project
from workers.align.talks.paper_states import DEFAULT_EXCLUDED, is_excluded

REPORT_UNITS = ("sentences", "sections")
"""What one report segment of a talk project is: a paper sentence (TalkSumm's states), or a
whole section for a coarser first pass. The paper readers keep no paragraphs, so a section is
the unit above the sentence."""
DEFAULT_REPORT_UNIT = "sentences"


def is_talk(project: Project) -> bool:
    return project.kind == Project.Kind.TALK


def report_unit(project: Project) -> str:
    return (project.settings or {}).get("report_unit", DEFAULT_REPORT_UNIT)


def excluded_sections(project: Project) -> tuple[str, ...]:
    """Sections a talk seldom describes: left out of the HMM's states and greyed in the
    editor."""
    listed = (project.settings or {}).get("excluded_sections")
    return DEFAULT_EXCLUDED if listed is None else tuple(listed)


def section_is_excluded(project: Project, title: str) -> bool:
    return bool(title) and is_excluded(title, excluded_sections(project))
