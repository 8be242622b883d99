"""Gold for one's own files (docs/gold-format.md): a simple CSV that says, per transcript
turn, which report segment it belongs to, turned into the gold layout that `evaluate --gold`,
`tune --gold` and the web import read (`public_meetings_layout`), and what a gold file holds,
for `gold check`.

The CSV's turns and segments are those the readers make of the files, numbered from 1 in
order (as `align` numbers them, whose ids `0_<n>_0` count from 0 and are accepted too), so a
researcher can start from `align`'s output and correct it.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workers.align.corpus import item_position
from workers.align.document_model import UNALIGNED, Meeting, ReaderError, Report, Transcript
from workers.align.pairs.shape import SegmentRow, TurnRow
from workers.align.public_meetings_layout import layout_side, read_gold
from workers.align.readers import decode_text
from workers.align.readers._input import load_input

UNALIGNED_MARKS = ("", "0", "-", "unaligned")
"""What the segment column may say of a turn that has no segment in the report."""


def gold_from_csv(name: str, report: Report, transcript: Transcript, mapping: Path) -> dict:
    """`{name: {"final": side, "tandem": {...}}}`: one document of the gold layout, its labels
    from the CSV `mapping` (columns `turn` and `segment`; others are ignored). Every turn must
    appear once; a ReaderError names the CSV's line otherwise."""
    labels = _labels(mapping, len(report.segments), len(transcript.turns))
    side = layout_side(
        [
            SegmentRow(segment.index, segment.id, segment.text, segment.speaker or "")
            for segment in report.segments
        ],
        [
            TurnRow(turn.index, turn.id, turn.text, turn.speaker or "", turn.start, turn.end)
            for turn in transcript.turns
        ],
        labels,
        validated=True,
    )
    source = f"{Path(report.source).name} + {Path(transcript.source.split(', ')[0]).name}"
    return {name: {"final": side, "tandem": {"name": name, "source": source[:200]}}}


def _labels(mapping: Path, segments: int, turns: int) -> list[int]:
    rows = list(_rows(mapping))
    labels: dict[int, int] = {}
    for line, turn_text, segment_text in rows:
        turn = _position(turn_text, turns, "turn", mapping, line)
        if turn in labels:
            raise ReaderError(mapping, f"line {line}", f"turn {turn_text} is listed twice")
        if segment_text.strip().lower() in UNALIGNED_MARKS:
            labels[turn] = UNALIGNED
        else:
            labels[turn] = _position(segment_text, segments, "segment", mapping, line)
    missing = [str(position + 1) for position in range(turns) if position not in labels]
    if missing:
        shown = ", ".join(missing[:10]) + (" ..." if len(missing) > 10 else "")
        raise ReaderError(
            mapping,
            "whole file",
            f"{len(missing)} of the transcript's {turns} turns have no row (turns {shown}); "
            "give every turn a row, with an empty segment for a turn the report leaves out",
        )
    return [labels[position] for position in range(turns)]


def _rows(mapping: Path) -> Iterator[tuple[int, str, str]]:
    text = decode_text(load_input(mapping))
    reader = csv.DictReader(io.StringIO(text))
    columns = {name.strip().lower(): name for name in reader.fieldnames or []}
    if "turn" not in columns or "segment" not in columns:
        raise ReaderError(
            mapping,
            "line 1",
            f"the header must name the columns turn and segment, not {reader.fieldnames}",
        )
    for row in reader:
        turn = (row.get(columns["turn"]) or "").strip()
        if turn:
            yield reader.line_num, turn, row.get(columns["segment"]) or ""


def _position(value: str, count: int, what: str, mapping: Path, line: int) -> int:
    """A 0-based position from a number counted from 1, or an id `0_<n>_0` counted from 0."""
    value = value.strip()
    position = item_position(value)
    if position is None and value.isdigit() and int(value) >= 1:
        position = int(value) - 1
    if position is None or position >= count:
        raise ReaderError(
            mapping,
            f"line {line}",
            f"{what} {value!r} is not a {what} of the file: give a number from 1 to {count} "
            f"(or an id from 0_0_0 to 0_{count - 1}_0)",
        )
    return position


@dataclass(frozen=True)
class GoldDocument:
    key: str
    segments: int
    turns: int
    unaligned_turns: int
    segments_used: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "segments": self.segments,
            "turns": self.turns,
            "unaligned_turns": self.unaligned_turns,
            "segments_used": self.segments_used,
        }


def gold_documents(path: Path) -> tuple[list[GoldDocument], int]:
    """What `evaluate --gold` and `tune --gold` would read from `path`, and how many of the
    file's documents they would leave out (no `final` side); LayoutError at the first
    problem, naming the item."""
    meetings = read_gold(path)
    total = _document_count(path)
    return [_summary(meeting) for meeting in meetings], max(0, total - len(meetings))


def _summary(meeting: Meeting) -> GoldDocument:
    labels = list(meeting.reference or ())
    return GoldDocument(
        key=meeting.id,
        segments=len(meeting.report.segments),
        turns=len(labels),
        unaligned_turns=sum(1 for label in labels if label == UNALIGNED),
        segments_used=len({label for label in labels if label != UNALIGNED}),
    )


def _document_count(path: Path) -> int:
    if path.is_dir():
        return len(list(path.glob("*.aligned.pckl")))
    data = json.loads(path.read_text(encoding="utf-8"))
    return len(data) if isinstance(data, dict) else 0
