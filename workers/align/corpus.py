"""Everything Tandem knows about the public_meetings corpus, in one place: the benchmark as
Meeting objects, its raw files, and its layout's names (item ids `0_<position>_<part>`, the
`public_meetings:<hash>` source of a document that came from it, that document's name).

Texts come from the corpus's `final` side (not from re-reading the raw files) so that the
reference labels refer to exactly the turns and segments the metrics expect. The backend
reaches this module through `backend.curation.public_meetings` only.

The package is imported when its data is first needed: importing it takes most of a second,
which the metrics, which only need the id layout, should not pay.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache, lru_cache
from pathlib import Path

import numpy as np

from workers.align.document_model import UNALIGNED, Meeting, Report, Segment, Transcript, Turn
from workers.align.text import first_tagged, scoring_sentences

CORPUS_SOURCE = "public_meetings"
_ITEM_ID = re.compile(r"^\d+_(\d+)_\d+$")

UNCORRECTED_REFERENCE: dict[str, tuple[range, ...]] = {
    "398ab01c54479bcd841b467dadca1222": (range(208, 597), range(599, 664), range(667, 668)),
}
"""Reference turns that the annotators left as the automatic pre-alignment they were shown.

In 398ab01c the reference restarts at turn 208: the turns before it reach segment 20, and turn
208 goes back to segment 1, the corpus's only return to the report's opening (its other order
breaks are of a few segments). From there `final` repeats `initial` on exactly these turns, and
each gives a segment that corrected turns before 208 already have: 310 turns in a row on
segment 1, a 2,472-word opening speech given about eleven times its length in speech, then
segments 2 and 3 as the paper's system placed them, up to turn 596; after two turns marked
unaligned, turns 599 to 663 on segments 5 to 17, and turn 667 on segment 20. The speech there
follows the report from about segment 26 on (the turn path puts turns 565 to 586 on segments
83 to 85). The turns the annotators changed (marked unaligned, one moved to segment 101) and
the closing turns that keep the pre-alignment's segment 101 stay. No aligner that reads the
texts can agree with these labels except by chance, so figures without them say how close an
aligner comes to corrected labels; the benchmark's own figures, and ours beside the paper's,
keep them.
"""


def meeting_ids() -> list[str]:
    return sorted(_raw_meetings())


def load_public_meetings(meetings: list[str] | None = None) -> list[Meeting]:
    """Meetings sorted by id; `meetings` selects by full id or unambiguous id prefix."""
    wanted = meeting_ids() if meetings is None else [_resolve(name) for name in meetings]
    return [_meeting(meeting_id) for meeting_id in sorted(set(wanted))]


def source_of(meeting_id: str) -> str:
    """A document's `source` when it holds this meeting."""
    return f"{CORPUS_SOURCE}:{meeting_id}"


def meeting_of_source(source: str) -> str | None:
    """The meeting a document's `source` names, or None when it came from elsewhere."""
    prefix = f"{CORPUS_SOURCE}:"
    return source.removeprefix(prefix) if source.startswith(prefix) else None


def document_name(meeting_id: str) -> str:
    return f"{CORPUS_SOURCE} {meeting_id[:8]}"


def item_id(position: int) -> str:
    """The layout's id of a report segment or transcript turn: `0_<position>_0`."""
    return f"0_{position}_0"


def item_position(item: str) -> int | None:
    """The middle field of an id `0_<j>_<z>` (a segment's report position, or the turn that
    sub-turns `0_<j>_1..` split), or None for an id outside the layout."""
    match = _ITEM_ID.match(item)
    return int(match.group(1)) if match else None


def raw_files(meeting_id: str) -> tuple[Path, list[Path]]:
    """The meeting's report (.docx) and its transcript's parts (.ctm), in order."""
    import public_meetings

    root = Path(public_meetings.data_root)
    parts = sorted(root.glob(f"{meeting_id}.*.ctm"), key=lambda path: int(path.suffixes[-2][1:]))
    return root / f"{meeting_id}.docx", parts


def smallest_meetings(count: int) -> list[str]:
    """By transcript turns: the quickest meetings to annotate, hence the demo's."""
    meetings = load_public_meetings()
    by_size = sorted(meetings, key=lambda meeting: (len(meeting.transcript.turns), meeting.id))
    return [meeting.id for meeting in by_size[:count]]


@lru_cache(maxsize=1)
def _raw_meetings() -> dict:
    import public_meetings

    return public_meetings.load_meetings()


def corrected_turns(meeting: Meeting) -> np.ndarray:
    """Per turn, False where its reference is known to repeat the uncorrected pre-alignment."""
    mask = np.ones(len(meeting.transcript.turns), dtype=bool)
    for uncorrected in UNCORRECTED_REFERENCE.get(meeting.id, ()):
        mask[uncorrected] = False
    return mask


def joined_meeting(meetings: list[Meeting]) -> Meeting:
    """The meetings one after another as one document, in the given order: turns, segments
    and reference labels shifted, each turn keeping its own id (ids repeat across meetings, so
    score the document's turns meeting by meeting).

    The bench's stand-in for a day-long sitting: ten to a hundred times a meeting's sentence
    pairs, and a real test of robustness, since the aligner must find each meeting's stretch
    of the report by itself.
    """
    turns: list[Turn] = []
    segments: list[Segment] = []
    reference: list[int] = []
    initial: list[int] = []
    for meeting in meetings:
        offset, turn_offset = len(segments), len(turns)
        turns.extend(
            replace(turn, index=turn_offset + i) for i, turn in enumerate(meeting.transcript.turns)
        )
        segments.extend(
            replace(segment, index=offset + i) for i, segment in enumerate(meeting.report.segments)
        )
        for labels, joined in ((meeting.reference, reference), (meeting.initial, initial)):
            if labels is None:
                raise ValueError(f"meeting {meeting.id} has no reference to join")
            joined.extend(label if label == UNALIGNED else label + offset for label in labels)
    source = f"{CORPUS_SOURCE}:joined"
    return Meeting(
        id="+".join(meeting.id[:8] for meeting in meetings),
        report=Report(segments=tuple(segments), source=source),
        transcript=Transcript(turns=tuple(turns), source=source),
        reference=tuple(reference),
        initial=tuple(initial),
    )


def _resolve(name: str) -> str:
    matches = [meeting_id for meeting_id in meeting_ids() if meeting_id.startswith(name)]
    if len(matches) != 1:
        raise KeyError(f"{name!r} matches {len(matches)} public_meetings ids, expected one")
    return matches[0]


def _label(aligned: str) -> int:
    if not aligned:
        return UNALIGNED
    position = item_position(aligned)
    if position is None:
        raise ValueError(f"{aligned!r} is not a segment id of the form 0_<j>_<z>")
    return position


@cache
def _meeting(meeting_id: str) -> Meeting:
    sides = _raw_meetings()[meeting_id]
    final_docs, final_turns = sides["final"]["doc"], sides["final"]["ctm"]
    segments = tuple(
        Segment(
            id=doc["id"],
            text=doc["text"].strip(),
            sentences=scoring_sentences(doc["text"]),
            speaker=first_tagged(doc["text"], "nom"),
            index=index,
        )
        for index, doc in enumerate(final_docs)
    )
    turns = tuple(
        Turn(
            id=turn["id"],
            text=turn["text"].strip(),
            sentences=scoring_sentences(turn["text"]),
            speaker=None,
            start=None,
            end=None,
            index=index,
        )
        for index, turn in enumerate(final_turns)
    )
    initial_by_turn_number = {
        item_position(turn["id"]): _label(turn["aligned"]) for turn in sides["initial"]["ctm"]
    }
    return Meeting(
        id=meeting_id,
        report=Report(segments=segments, source=source_of(meeting_id)),
        transcript=Transcript(turns=turns, source=source_of(meeting_id)),
        reference=tuple(_label(turn["aligned"]) for turn in final_turns),
        initial=tuple(initial_by_turn_number[item_position(turn["id"])] for turn in final_turns),
    )
