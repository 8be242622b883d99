"""Reads the public_meetings layout (the package's `load_meetings()` data, or a Tandem
export of it, `exports/public-meetings.json`) into documents to import or gold meetings to
evaluate and tune on, refusing the whole file at its first problem with a message that
points at the item, e.g. `meetings["ab12"].final.ctm[7].aligned`.

Which side is which:
- The report and the transcript come from `final` when present, else from `initial`.
- `initial` becomes a pre-alignment, unless the file's `tandem` block says the exported
  document had none. Its turns are matched to the content's by id, or by turn number when
  the ids differ (the package splits some turns of one meeting into sub-turns `0_<j>_<z>`).
- `final` is gold: a project's submitted annotation, the reference an evaluation scores.
"""

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from workers.align.corpus import document_name, item_id, item_position, source_of
from workers.align.document_model import UNALIGNED, Meeting, Report, Segment, Transcript, Turn
from workers.align.pairs.shape import SegmentRow, TurnRow
from workers.align.readers import finite_number
from workers.align.text import first_tagged, scoring_sentences

SIDES = ("initial", "final")
MAX_NAME, MAX_SOURCE, MAX_ENGINE_VERSION = 300, 200, 64


@dataclass(frozen=True)
class ParsedMeeting:
    key: str
    name: str
    source: str
    report: Report
    transcript: Transcript
    initial: list[int] | None
    confidences: list[float]
    provenance: dict[str, Any]
    gold: list[int] | None


def parse_public_meetings(data: Any) -> list[ParsedMeeting]:
    if not isinstance(data, dict) or not data:
        raise LayoutError(
            "file", 'expected a JSON object mapping meeting keys to {"initial": ..., "final": ...}'
        )
    return [_meeting(str(key), value) for key, value in data.items()]


def read_gold(path: str | Path) -> list[Meeting]:
    """The meetings with gold (a `final` side) of a file in this layout, or of a folder in the
    corpus package's own layout (`<hash>.aligned.pckl` files, read by the package's loader,
    which unpickles them: give it only folders you trust). Meetings by key, sorted."""
    path = Path(path)
    if path.is_dir():
        import public_meetings

        data = public_meetings.load_meetings(root=str(path))
        if not data:
            raise LayoutError(str(path), "holds no <hash>.aligned.pckl meeting")
    else:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise LayoutError(str(path), f"not a readable UTF-8 JSON file ({error})") from error
    meetings = [
        Meeting(
            id=parsed.key,
            report=parsed.report,
            transcript=parsed.transcript,
            reference=tuple(parsed.gold),
            initial=tuple(parsed.initial) if parsed.initial is not None else None,
        )
        for parsed in parse_public_meetings(data)
        if parsed.gold is not None
    ]
    if not meetings:
        raise LayoutError(str(path), 'has no meeting with gold (a "final" side)')
    return sorted(meetings, key=lambda meeting: meeting.id)


def layout_side(
    segments: Sequence[SegmentRow],
    turns: Sequence[TurnRow],
    labels: Sequence[int],
    *,
    confidences: Sequence[float] = (),
    accepted_without_review: Sequence[bool] | None = None,
    validated: bool,
) -> dict[str, list[dict[str, Any]]]:
    """One side (`initial` or `final`) of a meeting in this layout, as Tandem writes it (the
    web export, `gold from-csv`): `doc` the report's segments and `ctm` its turns, each turn's
    `aligned` the id of its segment or "" (unaligned). Ids are `0_<position>_0`; `key`,
    `speaker`, `start`, `end`, `confidence` and `accepted_without_review` (given for a gold
    side: per turn, whether its annotators accepted it unread; empty for none) are extras the
    package's readers ignore."""
    docs = [
        {
            "id": item_id(segment.position),
            "key": segment.key,
            "text": segment.text,
            "speaker": segment.speaker,
            "validated": validated,
        }
        for segment in segments
    ]
    ctm = []
    for index, (turn, label) in enumerate(zip(turns, labels, strict=True)):
        item = {
            "id": item_id(turn.position),
            "key": turn.key,
            "text": turn.text,
            "speaker": turn.speaker,
            "start": turn.start,
            "end": turn.end,
            "aligned": item_id(label) if label != UNALIGNED else "",
            "validated": validated,
        }
        if confidences:
            item["confidence"] = confidences[index]
        if accepted_without_review is not None:
            item["accepted_without_review"] = bool(
                accepted_without_review and accepted_without_review[index]
            )
        ctm.append(item)
    return {"doc": docs, "ctm": ctm}


def _meeting(key: str, value: Any) -> ParsedMeeting:
    where = f"meetings[{key!r}]"
    if not isinstance(value, dict) or not any(side in value for side in SIDES):
        _fail(where, 'needs an "initial" or a "final" side')
    sides = {side: _side(f"{where}.{side}", value[side]) for side in SIDES if side in value}
    content_name = "final" if "final" in sides else "initial"
    content = sides[content_name]
    if "initial" in sides and "final" in sides:
        initial_ids = [item["id"] for item in sides["initial"]["doc"]]
        if initial_ids != [item["id"] for item in content["doc"]]:
            _fail(f"{where}.initial.doc", "lists other report segments than the final side")
    meta = value.get("tandem") or {}
    if not isinstance(meta, dict):
        _fail(f"{where}.tandem", "must be an object")
    has_pre_alignment = "initial" in sides and meta.get("pre_alignment", {}) is not None
    name = _text(meta, "name", f"{where}.tandem") or document_name(key)
    source = _text(meta, "source", f"{where}.tandem") if "source" in meta else source_of(key)
    if len(name) > MAX_NAME or len(source) > MAX_SOURCE:
        _fail(
            f"{where}.tandem",
            f"name and source take at most {MAX_NAME} and {MAX_SOURCE} characters",
        )
    return ParsedMeeting(
        key=key,
        name=name,
        source=source,
        report=_report(content["doc"], f"{where}.{content_name}"),
        transcript=_transcript(content["ctm"], f"{where}.{content_name}"),
        initial=(
            _initial_labels(sides["initial"], content, f"{where}.initial")
            if has_pre_alignment
            else None
        ),
        confidences=_confidences(sides["initial"], f"{where}.initial") if has_pre_alignment else [],
        provenance=_provenance(meta.get("pre_alignment") or {}, f"{where}.tandem.pre_alignment"),
        gold=_labels(sides["final"], f"{where}.final") if "final" in sides else None,
    )


def _side(where: str, side: Any) -> dict[str, list[dict[str, Any]]]:
    if not isinstance(side, dict):
        _fail(where, 'must be an object with "doc" and "ctm" lists')
    for part in ("doc", "ctm"):
        items = side.get(part)
        if not isinstance(items, list) or not items:
            _fail(f"{where}.{part}", "must be a non-empty list")
        for index, item in enumerate(items):
            if not isinstance(item, dict):
                _fail(f"{where}.{part}[{index}]", "must be an object")
            for field in ("id", "text") + (("aligned",) if part == "ctm" else ()):
                if not isinstance(item.get(field), str):
                    _fail(f"{where}.{part}[{index}].{field}", "must be a string")
    ids = [item["id"] for item in side["doc"]]
    if len(set(ids)) != len(ids):
        _fail(f"{where}.doc", "has two segments with the same id")
    return side


def _report(docs: list[dict[str, Any]], where: str) -> Report:
    segments = []
    for index, item in enumerate(docs):
        text = item["text"].strip()
        speaker = item.get("speaker")
        segments.append(
            Segment(
                id=_text(item, "key", f"{where}.doc[{index}]") or item["id"],
                text=text,
                sentences=scoring_sentences(text),
                speaker=speaker if isinstance(speaker, str) else first_tagged(text, "nom"),
                index=index,
            )
        )
    return Report(segments=tuple(segments), source=where)


def _transcript(ctm: list[dict[str, Any]], where: str) -> Transcript:
    turns = []
    for index, item in enumerate(ctm):
        text = item["text"].strip()
        here = f"{where}.ctm[{index}]"
        turns.append(
            Turn(
                id=_text(item, "key", here) or item["id"],
                text=text,
                sentences=scoring_sentences(text),
                speaker=_text(item, "speaker", here) or None,
                start=_seconds(item, "start", here),
                end=_seconds(item, "end", here),
                index=index,
            )
        )
    return Transcript(turns=tuple(turns), source=where)


def _labels(side: dict[str, list[dict[str, Any]]], where: str) -> list[int]:
    positions = {item["id"]: position for position, item in enumerate(side["doc"])}
    labels = []
    for index, item in enumerate(side["ctm"]):
        aligned = item["aligned"]
        if aligned and aligned not in positions:
            _fail(f"{where}.ctm[{index}].aligned", f"{aligned!r} is not an id of this side's doc")
        labels.append(positions[aligned] if aligned else UNALIGNED)
    return labels


def _initial_labels(initial: dict, content: dict, where: str) -> list[int]:
    labels = _labels(initial, where)
    initial_ids = [item["id"] for item in initial["ctm"]]
    content_ids = [item["id"] for item in content["ctm"]]
    if initial_ids == content_ids:
        return labels
    by_turn = {
        _turn_number(turn_id, where): label
        for turn_id, label in zip(initial_ids, labels, strict=True)
    }
    matched = []
    for index, turn_id in enumerate(content_ids):
        number = _turn_number(turn_id, where)
        if number not in by_turn:
            _fail(f"{where}.ctm", f"has no turn for final turn {index} ({turn_id!r})")
        matched.append(by_turn[number])
    return matched


def _turn_number(turn_id: str, where: str) -> int:
    """`0_<j>_<z>`: sub-turns of turn j share j."""
    number = item_position(turn_id)
    if number is None:
        _fail(f"{where}.ctm", f"ids differ from the final side's and {turn_id!r} is not 0_<j>_<z>")
    return number


def _confidences(initial: dict, where: str) -> list[float]:
    """All or nothing: the package gives none; a Tandem export gives one per turn."""
    values = [item.get("confidence") for item in initial["ctm"]]
    if all(value is None for value in values):
        return []
    for index, value in enumerate(values):
        if not _is_number(value) or not 0.0 <= value <= 1.0:
            _fail(f"{where}.ctm[{index}].confidence", "must be a number in [0, 1] on every turn")
    return [float(value) for value in values]


def _provenance(provenance: Any, where: str) -> dict[str, Any]:
    """Where the exported pre-alignment came from: its parameter set's name and parameters."""
    if not isinstance(provenance, dict):
        _fail(where, "must be an object")
    params = provenance.get("params") or {}
    if not isinstance(params, dict):
        _fail(f"{where}.params", "must be an object")
    parameter_set = _text(provenance, "parameter_set", where)
    engine_version = _text(provenance, "engine_version", where)
    if len(parameter_set) > MAX_SOURCE or len(engine_version) > MAX_ENGINE_VERSION:
        _fail(where, "parameter_set or engine_version is too long")
    return {"parameter_set": parameter_set, "params": params, "engine_version": engine_version}


def _text(item: dict[str, Any], field: str, where: str) -> str:
    value = item.get(field)
    if value is None:
        return ""
    if not isinstance(value, str):
        _fail(f"{where}.{field}", "must be a string")
    return value


def _seconds(item: dict[str, Any], field: str, where: str) -> float | None:
    value = item.get(field)
    if value is None:
        return None
    if not _is_number(value) or value < 0:
        _fail(f"{where}.{field}", "must be a number of seconds")
    return float(value)


def _is_number(value: Any) -> bool:
    return finite_number(value) is not None


class LayoutError(ValueError):
    """The first problem of a file in this layout: `where` points at the item."""

    def __init__(self, where: str, problem: str) -> None:
        self.where = where
        self.problem = problem
        super().__init__(f"{where}: {problem}.")


def _fail(where: str, problem: str) -> NoReturn:
    raise LayoutError(where, problem)
