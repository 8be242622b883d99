"""Grouping of timed text pieces (subtitle cues, Whisper segments) into transcript turns."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from workers.align.corpus import item_id
from workers.align.document_model import ReaderError, Transcript, Turn, Word
from workers.align.text import scoring_sentences
from workers.align.tokenizers import Tokenizer


@dataclass(frozen=True)
class TimedText:
    text: str
    speaker: str | None
    start: float | None
    end: float | None
    words: tuple[Word, ...] = ()


def build_transcript(pieces: Sequence[TimedText], source: str, tokenizer: Tokenizer) -> Transcript:
    """One turn per speaker change when the format names speakers, else one per piece.

    Without speakers there is no evidence of who is talking, so merging pieces would only
    destroy the recogniser's own segmentation.
    """
    pieces = [piece for piece in pieces if tokenizer.tokenize(piece.text)]
    if not pieces:
        raise ReaderError(source, "whole file", "no transcript text found")
    has_speakers = any(piece.speaker for piece in pieces)
    groups: list[list[TimedText]] = []
    for piece in pieces:
        if groups and has_speakers and groups[-1][-1].speaker == piece.speaker:
            groups[-1].append(piece)
        else:
            groups.append([piece])
    turns = tuple(_turn(index, group, tokenizer) for index, group in enumerate(groups))
    return Transcript(turns=turns, source=source, pieces=len(pieces))


def _turn(index: int, group: list[TimedText], tokenizer: Tokenizer) -> Turn:
    text = " ".join(tokenizer.tokenize(piece.text) for piece in group)
    starts = [piece.start for piece in group if piece.start is not None]
    ends = [piece.end for piece in group if piece.end is not None]
    return Turn(
        id=item_id(index),
        text=text,
        sentences=scoring_sentences(text),
        speaker=group[0].speaker,
        start=min(starts) if starts else None,
        end=max(ends) if ends else None,
        index=index,
        words=tuple(word for piece in group for word in piece.words),
    )
