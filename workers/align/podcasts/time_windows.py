"""Fixed time windows of a timed transcript, the units of podcast summarization corpora.

The podcast paper (seed paper `podcast-summarization.txt`, section 2.1) extracts 30-second
segments rather than ASR turns or sentences: they are denser than single utterances and of
similar lengths, so a classifier is not misled by length. Windows are cut on a fixed grid
from time 0 (window k holds [k * seconds, (k + 1) * seconds)), so a window's place in the
recording does not depend on where speech starts, and the editor can play it from the audio.
A transcript of several recordings (a CTM in parts, each part's clock starting at 0) is
windowed recording by recording: a turn starting more than a window before the latest end
so far opens the next recording, whose windows follow the previous one's.

A window's text is the transcript's own tokens (as its reader made them, in the project's
language), not the recogniser's raw words: each word takes the tokens of its turn's text that
spell it (see `_owners`).
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass

from workers.align.corpus import item_id
from workers.align.document_model import ReaderError, Transcript, Turn, Word
from workers.align.text import scoring_sentences


@dataclass(frozen=True)
class WindowConfig:
    seconds: float = 30.0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.seconds) and self.seconds > 0):
            raise ValueError(f"a window lasts a positive number of seconds, not {self.seconds!r}")


@dataclass(frozen=True)
class _Token:
    """One transcript token placed in time (its word's times), with the recognised words it
    carries into its window: the word whose spelling starts in it, and the words after that
    start no token (a full stop, the "hui" of a token "aujourd'hui" recognised as two words),
    so that a word goes wherever the text that spells it goes. The first token also carries
    the words before it (a full stop the reader dropped). Tokens of a turn without word times
    carry none."""

    text: str
    start: float
    end: float
    speaker: str | None
    words: tuple[Word, ...]


def window_number(seconds: float, config: WindowConfig = WindowConfig()) -> int:
    """The window a word starting at `seconds` belongs to (times before 0 go to the first)."""
    return max(0, math.floor(seconds / config.seconds))


def window_transcript(transcript: Transcript, config: WindowConfig = WindowConfig()) -> Transcript:
    """Cut a timed transcript into fixed windows, never splitting a word: a word belongs to the
    window its start falls in. Turns with words use their word times; timed turns without
    words (SRT/VTT cues, Whisper segments without words) spread their tokens evenly over
    [start, end]. Raises ReaderError (naming the problem) when the transcript has no times.
    Empty windows (silence) yield no unit; output turns are renumbered (id=item_id(i), index=i),
    start/end = the window's first word start / last word end, text and sentences
    (scoring_sentences) rebuilt, words kept, speaker = the speaker of most of its words."""
    windows: dict[tuple[int, int], list[_Token]] = {}
    part, latest_end = 0, -math.inf
    for turn in transcript.turns:
        tokens = _timed_tokens(turn, transcript.source)
        if not tokens:
            continue
        if min(token.start for token in tokens) < latest_end - config.seconds:
            part, latest_end = part + 1, -math.inf
        latest_end = max(latest_end, *(token.end for token in tokens))
        for token in tokens:
            windows.setdefault((part, window_number(token.start, config)), []).append(token)
    if not windows:
        raise ReaderError(transcript.source, "whole file", "the transcript has no words to window")
    return Transcript(
        turns=tuple(
            _window_turn(position, windows[number])
            for position, number in enumerate(sorted(windows))
        ),
        source=transcript.source,
    )


def _timed_tokens(turn: Turn, source: str) -> list[_Token]:
    tokens = turn.text.split()
    if not tokens:
        return []
    if turn.words:
        owners = _owners(tokens, turn.words)
        carried: list[list[Word]] = [[] for _ in tokens]
        carrier = 0
        for position, word in enumerate(turn.words):
            while carrier + 1 < len(tokens) and owners[carrier + 1] <= position:
                carrier += 1
            carried[carrier].append(word)
        return [
            _Token(
                token,
                turn.words[owner].start,
                turn.words[owner].end,
                turn.speaker,
                tuple(words),
            )
            for token, owner, words in zip(tokens, owners, carried, strict=True)
        ]
    if turn.start is None or turn.end is None:
        raise ReaderError(
            source,
            f"turn {turn.index + 1}",
            "has neither word times nor start and end times; only a timed transcript (CTM, "
            "Whisper JSON, SRT, WebVTT) can be cut into time windows",
        )
    start, span, count = turn.start, max(turn.end - turn.start, 0.0), len(tokens)
    return [
        _Token(token, start + span * i / count, start + span * (i + 1) / count, turn.speaker, ())
        for i, token in enumerate(tokens)
    ]


def _owners(tokens: list[str], words: tuple[Word, ...]) -> list[int]:
    """For each token, the position of the recognised word it spells, matched on letters and
    digits alone (never decreasing).

    Readers tokenise a turn's text (split elisions, isolate punctuation, drop a leading full
    stop) while its words stay as recognised, so tokens and words do not correspond one to
    one; their letters and digits do. A token takes the word its first letter falls in;
    punctuation goes with the word before it. When the letters differ (a Whisper segment's
    text edited apart from its words), tokens are spread over the words in proportion."""
    ends: list[int] = []
    length = 0
    for word in words:
        length += len(_letters(word.text))
        ends.append(length)
    keys = [_letters(token) for token in tokens]
    if "".join(keys) != "".join(_letters(word.text) for word in words):
        return [min(len(words) - 1, i * len(words) // len(tokens)) for i in range(len(tokens))]
    owners: list[int] = []
    position = 0
    for key in keys:
        if key:
            owners.append(bisect_right(ends, position))
            position += len(key)
        else:
            owners.append(owners[-1] if owners else 0)
    return owners


def _letters(text: str) -> str:
    return "".join(char for char in text.lower() if char.isalnum())


def _window_turn(position: int, tokens: list[_Token]) -> Turn:
    text = " ".join(token.text for token in tokens)
    speakers = Counter(token.speaker for token in tokens)
    words = tuple(word for token in tokens for word in token.words)
    times = [(token.start, token.end) for token in tokens] + [(w.start, w.end) for w in words]
    return Turn(
        id=item_id(position),
        text=text,
        sentences=scoring_sentences(text),
        speaker=speakers.most_common(1)[0][0],
        start=min(spans[0] for spans in times),
        end=max(spans[1] for spans in times),
        index=position,
        words=words,
    )
