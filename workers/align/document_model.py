"""Document model shared by readers, scoring, alignment and metrics.

Everything is a frozen dataclass with tuple fields so that parsed documents can be cached,
hashed and passed between workers without anyone mutating a shared instance.
"""

from __future__ import annotations

from dataclasses import dataclass
from os import PathLike

from workers.align.tokenizers import DEFAULT_LANGUAGE

UNALIGNED = -1
"""Label of a transcript turn that has no counterpart in the report."""


@dataclass(frozen=True)
class Segment:
    """One speaker intervention of the report.

    `text` keeps the corpus form (lower-cased tokens, <h>/<nom>/<p> tags) so it can be compared
    with the public_meetings reference; `sentences` are tag-free and are what scoring reads.
    """

    id: str
    text: str
    sentences: tuple[str, ...]
    speaker: str | None
    index: int


@dataclass(frozen=True)
class Word:
    """A recognised word with its timing, kept so alignments can point back into the audio."""

    text: str
    start: float
    end: float
    confidence: float


@dataclass(frozen=True)
class Turn:
    """One ASR turn of the transcript; times are seconds, None when the format has none."""

    id: str
    text: str
    sentences: tuple[str, ...]
    speaker: str | None
    start: float | None
    end: float | None
    index: int
    words: tuple[Word, ...] = ()

    @property
    def word_count(self) -> int:
        """Whitespace tokens of `text`: the weight the word-accuracy metric gives this turn."""
        return len(self.text.split())


@dataclass(frozen=True)
class Report:
    segments: tuple[Segment, ...]
    source: str
    segmented_by: str = "speakers"
    """How the reader cut the report into segments, said to whoever imports it: "speakers"
    (a segment per speaker intervention and titled section, the paper's), "paragraphs" (a
    plain-text report without speaker lines, cut at blank lines) or "sentences" (a
    description or abstract, whose sentences the salience labels score against)."""


@dataclass(frozen=True)
class Transcript:
    turns: tuple[Turn, ...]
    source: str
    pieces: int | None = None
    """How many timed pieces (subtitle cues, Whisper segments) the reader made its turns of,
    consecutive pieces of one speaker becoming one turn; None when the format has none."""


@dataclass(frozen=True)
class Meeting:
    """A report/transcript pair with, when known, per-turn segment labels.

    `reference` and `initial` hold, for each turn, the position of its report segment in
    `report.segments`, or UNALIGNED (-1).
    """

    id: str
    report: Report
    transcript: Transcript
    reference: tuple[int, ...] | None
    initial: tuple[int, ...] | None
    language: str = DEFAULT_LANGUAGE
    """The texts' language code, which lexical word vectors weigh and stem words by."""


class ReaderError(ValueError):
    """Raised for input a reader cannot parse; says which file, where, and what is wrong,
    so a user uploading a file can fix it without reading a stack trace."""

    def __init__(self, path: str | PathLike[str], location: str, problem: str) -> None:
        self.path = str(path)
        self.location = location
        self.problem = problem
        super().__init__(f"{self.path}: {location}: {problem}")


@dataclass(frozen=True)
class Section:
    """One titled section of a paper; `sentences` are in the corpus form scoring reads."""

    title: str
    sentences: tuple[str, ...]


@dataclass(frozen=True)
class Paper:
    """A paper as its readers give it: title and sections in reading order (references and
    front matter other than the abstract are not sections)."""

    title: str | None
    sections: tuple[Section, ...]
    source: str
