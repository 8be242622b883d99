"""Short documents cut from long ones with their reference: what a newcomer's first pairs
look like (a report of about ten interventions and the turns they were written from), so
that defaults are tuned for them as well as for whole meetings.

A turn path tuned on whole meetings alone learns costs that suit 300-turn transcripts: a
baseline taken as a quantile of a sentence's similarities to hundreds of report sentences,
gaps priced against long stretches. On a ten-segment report the same quantile is the third
best match, and a hand-written pair of 33 turns came out with every turn unaligned.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from workers.align.document_model import UNALIGNED, Meeting, Report, Transcript

EXCERPT_SEGMENTS = 10
"""Report segments in an excerpt: a short meeting's report, or a hand-written test pair's."""

MINIMUM_ALIGNED_TURNS = 3
"""An excerpt needs at least this many turns aligned to it to say anything about a path."""


def excerpts(meeting: Meeting, size: int = EXCERPT_SEGMENTS) -> list[Meeting]:
    """The meeting cut at every `size` report segments: each excerpt holds those segments and
    the turns from the first to the last one its reference aligns to them, with the unaligned
    turns between (a turn the reference sends outside the excerpt, where the report's order
    breaks, is left out). Positions and labels are renumbered from 0; ids are kept."""
    if meeting.reference is None:
        raise ValueError(f"{meeting.id} has no reference to cut excerpts by")
    if size < 1:
        raise ValueError(f"an excerpt needs at least one segment, got {size}")
    reference = np.asarray(meeting.reference)
    cut = []
    for start in range(0, len(meeting.report.segments), size):
        stop = min(start + size, len(meeting.report.segments))
        inside = np.flatnonzero((reference >= start) & (reference < stop))
        if len(inside) < MINIMUM_ALIGNED_TURNS:
            continue
        kept = [
            turn
            for turn in range(int(inside.min()), int(inside.max()) + 1)
            if reference[turn] == UNALIGNED or start <= reference[turn] < stop
        ]
        cut.append(
            Meeting(
                id=f"{meeting.id}:{start}-{stop}",
                report=Report(
                    segments=tuple(
                        replace(segment, index=position)
                        for position, segment in enumerate(meeting.report.segments[start:stop])
                    ),
                    source=meeting.report.source,
                ),
                transcript=Transcript(
                    turns=tuple(
                        replace(meeting.transcript.turns[turn], index=position)
                        for position, turn in enumerate(kept)
                    ),
                    source=meeting.transcript.source,
                ),
                reference=tuple(
                    UNALIGNED if reference[turn] == UNALIGNED else int(reference[turn]) - start
                    for turn in kept
                ),
                initial=None,
                language=meeting.language,
            )
        )
    return cut
