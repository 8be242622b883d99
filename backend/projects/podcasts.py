"""A project's time-window and salience settings as the import, the salience labels and the
exports read them, with the podcast paper's defaults where the lead set nothing.

Windows serve any project whose transcripts are timed; a podcast project uses them unless its
lead chose turns, since an episode's recogniser segments are no speaker turns."""

from collections.abc import Mapping

from backend.projects.models import Project
from workers.align.podcasts.salience import SalienceConfig
from workers.align.podcasts.time_windows import WindowConfig

TRANSCRIPT_UNITS = ("turns", "windows")
"""What one transcript unit is: the reader's turn (a speaker change, a cue), or a fixed time
window cut from the words' times at import."""
MIN_WINDOW_SECONDS, MAX_WINDOW_SECONDS = 5.0, 600.0


def is_podcast(project: Project) -> bool:
    return project.kind == Project.Kind.PODCAST


def _settings(project: Project) -> dict:
    return project.settings or {}


def window_config(project: Project, document_units: Mapping | None = None) -> WindowConfig | None:
    """The windows a transcript is cut into, None when it keeps the reader's turns.
    `document_units`, an upload's own `transcript_unit` and `window_seconds`, win over the
    project's settings; a window length alone asks for windows."""
    chosen = {**_settings(project), **(document_units or {})}
    default = (
        "windows" if is_podcast(project) or "window_seconds" in (document_units or {}) else "turns"
    )
    if chosen.get("transcript_unit", default) != "windows":
        return None
    return WindowConfig(seconds=chosen.get("window_seconds", WindowConfig.seconds))


def cleans_descriptions(project: Project) -> bool:
    return bool(_settings(project).get("clean_descriptions", False))


def salience_config(project: Project) -> SalienceConfig:
    return SalienceConfig(tau=_settings(project).get("salience_tau", SalienceConfig.tau))
