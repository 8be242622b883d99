"""A project's time-window and salience settings as the import, the salience labels and the
exports read them, with the podcast paper's defaults where the lead set nothing.

Windows serve any project whose transcripts are timed; a podcast project uses them unless its
lead chose turns, since an episode's recogniser segments are no speaker turns."""

from backend.projects.models import Project
from workers.align.salience import SalienceConfig
from workers.align.windows import WindowConfig

TRANSCRIPT_UNITS = ("turns", "windows")
"""What one transcript unit is: the reader's turn (a speaker change, a cue), or a fixed time
window cut from the words' times at import."""


def is_podcast(project: Project) -> bool:
    return project.kind == Project.Kind.PODCAST


def _settings(project: Project) -> dict:
    return project.settings or {}


def transcript_unit(project: Project) -> str:
    default = "windows" if is_podcast(project) else "turns"
    return _settings(project).get("transcript_unit", default)


def window_config(project: Project) -> WindowConfig | None:
    """None when the project's transcripts keep the reader's turns."""
    if transcript_unit(project) != "windows":
        return None
    return WindowConfig(seconds=_settings(project).get("window_seconds", WindowConfig.seconds))


def cleans_descriptions(project: Project) -> bool:
    return bool(_settings(project).get("clean_descriptions", False))


def salience_config(project: Project) -> SalienceConfig:
    return SalienceConfig(tau=_settings(project).get("salience_tau", SalienceConfig.tau))
