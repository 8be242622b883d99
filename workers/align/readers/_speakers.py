"""Rule-based recognition of speaker labels at the start of a line ("M. Dupont :")."""

from __future__ import annotations

import re

_HONORIFIC = r"(?:M\.|MM\.|Mme|Mmes|Mlle|Mr\.?|Mrs\.?|Ms\.?|Dr\.?|Pr\.?|Me|Monsieur|Madame)"
_GENERIC_SPEAKER = r"(?:SPEAKER|Speaker|Intervenant|Intervenante|Locuteur)[ _]?\d*"
_NAME = rf"(?:{_HONORIFIC}\s+[^\s:*][^:*\n]{{0,80}}?|{_GENERIC_SPEAKER})"
_SPEAKER_LINE = re.compile(
    rf"^\s*(?:\*\*(?P<bold>[^*\n]{{1,100}}?)\s*\*\*\s*:|\*\*(?P<bold_colon>[^*\n]{{1,100}}?)\s*:\s*\*\*"
    rf"|\[(?P<bracketed>{_NAME})\]\s*:?|(?P<plain>{_NAME})\s*:)\s*(?P<rest>.*)$"
)


def split_speaker(line: str) -> tuple[str | None, str]:
    """(speaker, remaining text) when the line opens with a speaker label, else (None, line)."""
    match = _SPEAKER_LINE.match(line)
    if not match:
        return None, line
    name = next(
        match.group(group)
        for group in ("bold", "bold_colon", "bracketed", "plain")
        if match.group(group)
    )
    return name.strip(), match.group("rest")
