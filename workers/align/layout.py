"""A meeting flattened to the sentence grid the scorers and the dynamic programme work on."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from workers.align.document_model import Meeting


@dataclass(frozen=True)
class SentenceLayout:
    """Rows are transcript sentences, columns report sentences, each tagged with its owner."""

    transcript_sentences: tuple[str, ...]
    report_sentences: tuple[str, ...]
    turn_of_row: np.ndarray
    segment_of_col: np.ndarray
    n_turns: int
    n_segments: int
    turn_word_counts: np.ndarray
    row_word_counts: np.ndarray


def sentence_layout(meeting: Meeting) -> SentenceLayout:
    turns = meeting.transcript.turns
    segments = meeting.report.segments
    return SentenceLayout(
        transcript_sentences=tuple(s for turn in turns for s in turn.sentences),
        report_sentences=tuple(s for segment in segments for s in segment.sentences),
        turn_of_row=np.repeat(np.arange(len(turns)), [len(t.sentences) for t in turns]),
        segment_of_col=np.repeat(np.arange(len(segments)), [len(s.sentences) for s in segments]),
        n_turns=len(turns),
        n_segments=len(segments),
        turn_word_counts=np.array([turn.word_count for turn in turns], dtype=np.int64),
        row_word_counts=np.array(
            [len(s.split()) for turn in turns for s in turn.sentences], dtype=np.int64
        ),
    )
