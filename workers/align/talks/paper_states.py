"""Which of a paper's sentences a talk may be describing: TalkSumm's states and start.

Presenters seldom speak about the Abstract, the Related Work or the Acknowledgments (Lev et
al., 2019), so those sections' sentences are not states by default; a talk starts in the
Introduction. Section titles are matched without their numbering and case ("2.1 Related
work", "RELATED WORK", "Acknowledgements").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from workers.align.document_model import Paper

DEFAULT_EXCLUDED = ("abstract", "related work", "acknowledgments")
"""Section names left out of the states unless the caller says otherwise."""

_NUMBERING = re.compile(r"^\s*(?:(?:\d+|[ivxlc]+|[a-h])(?:\.\d+)*\.?\)?\s+)", re.IGNORECASE)
_SPELLINGS = {
    "acknowledgements": "acknowledgments",
    "acknowledgement": "acknowledgments",
    "acknowledgment": "acknowledgments",
    "related works": "related work",
    "related research": "related work",
}


def section_name(title: str) -> str:
    """A title as the exclusion list names it: no numbering, lower case, one spelling."""
    name = " ".join(_NUMBERING.sub("", title).lower().split()).strip(" .:")
    return _SPELLINGS.get(name, name)


def is_excluded(title: str, excluded: tuple[str, ...]) -> bool:
    """Excluded when the title is a listed name, or (for the longer names) contains it:
    "Background and related work" is related work."""
    name = section_name(title)
    wanted = {section_name(entry) for entry in excluded}
    return name in wanted or any(" " in entry and entry in name for entry in wanted)


@dataclass(frozen=True)
class PaperStates:
    """The paper's sentences in reading order, which of them are states, and where a talk
    may start."""

    sentences: tuple[str, ...]
    section_of_sentence: np.ndarray
    is_state: np.ndarray
    is_start: np.ndarray

    @property
    def state_sentences(self) -> np.ndarray:
        """Indices (into `sentences`) of the states, in order."""
        return np.flatnonzero(self.is_state)


def paper_states(paper: Paper, excluded: tuple[str, ...] = DEFAULT_EXCLUDED) -> PaperStates:
    """Start states are the Introduction's; a paper without one starts anywhere."""
    sentences = [s for section in paper.sections for s in section.sentences]
    section_of = np.repeat(
        np.arange(len(paper.sections)), [len(section.sentences) for section in paper.sections]
    )
    kept = np.array([not is_excluded(section.title, excluded) for section in paper.sections])
    introduction = np.array(
        [section_name(section.title) == "introduction" for section in paper.sections]
    )
    is_state = kept[section_of] if len(sentences) else np.zeros(0, dtype=bool)
    is_start = (introduction[section_of] & is_state) if len(sentences) else is_state
    return PaperStates(tuple(sentences), section_of, is_state, is_start)
