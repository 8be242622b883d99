"""Podcast-shaped episodes cut from real public_meetings data: the first minutes of a
meeting's ASR (its CTM words, with their times and confidences, also written as Whisper JSON)
and, as the episode's description, the longest sentence of each report segment those minutes
were written into."""

import functools
import json
from dataclasses import dataclass

from workers.align.corpus import load_public_meetings, raw_files
from workers.align.document_model import UNALIGNED
from workers.align.readers import read_transcript

MEETING = "0b9ec6f0"
"""A meeting whose raw CTM reads into exactly the corpus's turns, so that the corpus's
reference says which report segments the first minutes became."""


@dataclass(frozen=True)
class Episode:
    ctm: bytes
    whisper_json: bytes
    description: str
    seconds: float
    words: int


@functools.cache
def episode(seconds: float = 250.0) -> Episode:
    meeting = load_public_meetings([MEETING])[0]
    _, parts = raw_files(meeting.id)
    turns = read_transcript(parts[0].read_bytes(), parts[0].name, "fr").turns
    kept = [turn for turn in turns if turn.end is not None and turn.end <= seconds]
    assert kept, "the meeting's first turn ends after the episode"
    segments = sorted(
        {
            meeting.reference[turn.index]
            for turn in kept
            if meeting.reference[turn.index] != UNALIGNED
        }
    )
    description = " ".join(
        _sentence(max(meeting.report.segments[position].sentences, key=len))
        for position in segments
    )
    words = [word for turn in kept for word in turn.words]
    return Episode(
        ctm=_ctm(parts[0].read_text(encoding="utf-8"), seconds),
        whisper_json=_whisper_json(kept),
        description=description,
        seconds=max(word.end for word in words),
        words=len(words),
    )


def _sentence(corpus_form: str) -> str:
    """A report sentence as a person writes it: no markup, a capital, a full stop."""
    tokens = [token for token in corpus_form.split() if not token.startswith("<")]
    text = " ".join(tokens).rstrip(" .")
    return text[:1].upper() + text[1:] + "."


def _ctm(text: str, seconds: float) -> bytes:
    """The CTM's lines up to `seconds`, turn markers included."""
    lines = [line for line in text.splitlines() if float(line.split("\t")[2]) < seconds]
    return ("\n".join(lines) + "\n").encode()


def _whisper_json(turns) -> bytes:
    segments = [
        {
            "start": turn.start,
            "end": turn.end,
            "text": " ".join(word.text for word in turn.words),
            "words": [
                {
                    "word": word.text,
                    "start": word.start,
                    "end": word.end,
                    "probability": word.confidence,
                }
                for word in turn.words
            ],
        }
        for turn in turns
    ]
    return json.dumps({"language": "fr", "segments": segments}, ensure_ascii=False).encode()
