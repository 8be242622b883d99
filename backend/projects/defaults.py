"""What the apps read when a project's settings leave a value unset, kept with the projects so
that the settings form (backend/projects/apis.py) documents the defaults the apps above use."""

from typing import Any

DEFAULT_LOW_CONFIDENCE = 0.4
"""Below this pre-alignment confidence the editor marks a turn worth a second look, unless
the project sets `low_confidence_below`: on the heuristic confidence about a third of the
public_meetings turns; with a learned decision the confidence is a calibrated probability,
which a lead can read as "this share of such turns is right"."""


DEFAULT_TRUSTED_CONFIDENCE = 0.8
"""A pre-aligned report segment counts as a trusted automatic pair when every turn assigned
to it is at least this confident; a project overrides it with settings.trusted_confidence."""


DEFAULT_LEARNED_DECISION = True
"""A tuning run fits the engine's learned decision (corrections kept only when they beat the
path on held-out gold, and a calibrated confidence) unless the project switches it off, for
example to compare the loop with and without it."""


def learns_decision(project_settings: dict[str, Any]) -> bool:
    """Whether the project's tuning runs fit a learned decision, and so whether its
    pre-alignments may be calibrated before it has one."""
    return bool(project_settings.get("learned_decision", DEFAULT_LEARNED_DECISION))
