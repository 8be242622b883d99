"""Rule-based recognition of speaker labels at the start of a line ("M. Dupont :").

Every reader knows titled names (`M. Dupont :`, `Dr. Smith:`), `**Name**:` in bold, `[Name]`
and numbered speakers (`SPEAKER_1:`); a typed report (.txt, .md) also knows a bare name, as
SPEAKER_RULE words it for users (docs/your-own-data.md).
"""

from __future__ import annotations

import re

_HONORIFIC = r"(?:M\.|MM\.|Mme|Mmes|Mlle|Mr\.?|Mrs\.?|Ms\.?|Dr\.?|Pr\.?|Me|Monsieur|Madame)"
_GENERIC_SPEAKER = r"(?:SPEAKER|Speaker|Intervenant|Intervenante|Locuteur)[ _]?\d*"
_NAME = rf"(?:{_HONORIFIC}\s+[^\s:*][^:*\n]{{0,80}}?|{_GENERIC_SPEAKER})"
_SPEAKER_LINE = re.compile(
    rf"^\s*(?:\*\*(?P<bold>[^*\n]{{1,100}}?)\s*\*\*\s*:|\*\*(?P<bold_colon>[^*\n]{{1,100}}?)\s*:\s*\*\*"
    rf"|\[(?P<bracketed>{_NAME})\]\s*:?|(?P<plain>{_NAME})\s*:)\s*(?P<rest>.*)$"
)

_PARTICLES = frozenset({"de", "du", "des", "van", "von", "der", "den", "da", "di", "la", "le"})
_NAME_WORD = r"[^\W\d_][\w'\u2019.\-]*"
_BARE_NAME_LINE = re.compile(
    rf"^\s*(?P<name>{_NAME_WORD}(?:[ \t]+{_NAME_WORD}){{0,5}})[ \t]*:(?![/\d])\s*(?P<rest>.*)$"
)
SPEAKER_RULE = (
    "a line opens an intervention when it starts with a speaker's name and a colon: a title "
    "and name ('Dr. Smith:', 'M. Dupont :'), '**Name**:', '[Name]', 'SPEAKER_1:', or in a .txt "
    "or .md report 1 to 4 capitalised words ('Alice Brown:'; particles such as de, van, von "
    "may join them); a colon later in a sentence does not"
)
"""What counts as a speaker line, said to users beside the segment count."""


def split_speaker(line: str, bare_names: bool = False) -> tuple[str | None, str]:
    """(speaker, remaining text) when the line opens with a speaker label, else (None, line).
    `bare_names`: also a name without title, 1 to 4 capitalised words (typed reports)."""
    match = _SPEAKER_LINE.match(line)
    if match:
        name = next(
            match.group(group)
            for group in ("bold", "bold_colon", "bracketed", "plain")
            if match.group(group)
        )
        return name.strip(), match.group("rest")
    if bare_names:
        bare = _BARE_NAME_LINE.match(line)
        if bare and _is_bare_name(bare.group("name").split()):
            return bare.group("name").strip(), bare.group("rest")
    return None, line


def _is_bare_name(words: list[str]) -> bool:
    """1 to 4 capitalised words, lower-case particles between them not counted."""
    capitalised = [word for word in words if word.lower() not in _PARTICLES]
    return (
        1 <= len(capitalised) <= 4
        and words[0] not in _PARTICLES
        and words[-1].lower() not in _PARTICLES
        and all(word[0].isupper() for word in capitalised)
    )
