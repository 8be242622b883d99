"""Pairs: one report segment (the target) with the ordered transcript turns assigned to it
(the source). Segments that no turn is assigned to are not pairs.

Pure functions over one document's rows, so a format never sees more than one document at
a time, and the preview counts exactly what the exports write.
"""

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from workers.align.model import UNALIGNED
from workers.align.pairs.cleaning import Cleaning, CleanText, clean
from workers.align.pairs.options import ExportOptions
from workers.align.pairs.split import Split

Origin = Literal["gold", "automatic"]
GOLD_CONFIDENCE = 1.0
"""A human-corrected pair is as certain as the corpus gets; automatic pairs carry the
weakest confidence among their turns (the rule the iteration dashboards count with)."""

FIELDS = (
    "id",
    "split",
    "meeting",
    "document_id",
    "document_name",
    "iteration",
    "origin",
    "gold_rule",
    "confidence",
    "agreement",
    "segment_position",
    "segment_key",
    "segment_speaker",
    "turn_positions",
    "turn_keys",
    "turn_speakers",
    "start",
    "end",
    "source",
    "target",
    "source_words",
    "source_sentences",
    "target_words",
    "target_sentences",
)
ANNOTATOR_LABELS = "annotator_labels"
"""The optional field `annotator_labels=true` adds: each annotator's labels of the turns."""
FILTERS = (
    "min_agreement",
    "min_confidence",
    "min_words",
    "max_words",
    "min_sentences",
    "max_sentences",
)


@dataclass(frozen=True)
class SegmentRow:
    position: int
    key: str
    text: str
    speaker: str


@dataclass(frozen=True)
class TurnRow:
    position: int
    key: str
    text: str
    speaker: str
    start: float | None
    end: float | None


@dataclass(frozen=True)
class AlignedDocument:
    """One document with the alignment an export reads from it: its gold, else (when the
    export includes automatic pairs) its current pre-alignment."""

    id: int
    name: str
    meeting: str
    iteration: int | None
    split: Split
    origin: Origin
    labels: Sequence[int]
    confidences: Sequence[float]
    segments: Sequence[SegmentRow]
    turns: Sequence[TurnRow]
    gold_rule: str | None = None
    """Which rule made the gold (single_annotator, agreed, adjudicated); None if automatic."""
    agreement: float | None = None
    """Observed agreement by turns among the gold's annotators (percent); None with one."""
    annotator_labels: Mapping[str, Sequence[int]] = field(default_factory=dict)
    """Each annotator's submitted labels of every turn, by username (gold documents)."""


@dataclass(frozen=True)
class Candidate:
    """A pair before filtering; `rejected_by` names the first filter it fails, or None."""

    record: dict[str, Any]
    rejected_by: str | None


def record_fields(options: ExportOptions) -> tuple[str, ...]:
    return (*FIELDS, ANNOTATOR_LABELS) if options.annotator_labels else FIELDS


def candidates(document: AlignedDocument, options: ExportOptions) -> Iterator[Candidate]:
    cleaning = Cleaning(
        remove_tags=options.remove_tags,
        remove_speaker_names=options.remove_speaker_names,
        remove_headings=options.remove_headings,
        remove_unk=options.remove_unk,
    )
    assigned: dict[int, list[int]] = {}
    for turn, label in enumerate(document.labels):
        if label != UNALIGNED:
            assigned.setdefault(label, []).append(turn)
    for position in sorted(assigned):
        turns = [document.turns[index] for index in assigned[position]]
        confidence = _confidence(document, assigned[position])
        source = _clean_turns(turns, cleaning)
        target = clean(document.segments[position].text, cleaning)
        record = _record(document, document.segments[position], turns, confidence, source, target)
        if options.annotator_labels:
            record[ANNOTATOR_LABELS] = [
                {"annotator": name, "labels": [labels[turn] for turn in assigned[position]]}
                for name, labels in document.annotator_labels.items()
            ]
        yield Candidate(record, _first_failed_filter(record, options))


def _confidence(document: AlignedDocument, turns: list[int]) -> float | None:
    if document.origin == "gold":
        return GOLD_CONFIDENCE
    if not document.confidences:
        return None
    return round(min(document.confidences[turn] for turn in turns), 6)


def _clean_turns(turns: list[TurnRow], cleaning: Cleaning) -> CleanText:
    """A turn boundary ends a sentence, so each turn is measured on its own."""
    parts = [clean(turn.text, cleaning) for turn in turns]
    return CleanText(
        text=" ".join(part.text for part in parts if part.text),
        words=sum(part.words for part in parts),
        sentences=sum(part.sentences for part in parts),
    )


def _record(
    document: AlignedDocument,
    segment: SegmentRow,
    turns: list[TurnRow],
    confidence: float | None,
    source: CleanText,
    target: CleanText,
) -> dict[str, Any]:
    return {
        "id": f"{document.id}-{segment.position}",
        "split": document.split,
        "meeting": document.meeting,
        "document_id": document.id,
        "document_name": document.name,
        "iteration": document.iteration,
        "origin": document.origin,
        "gold_rule": document.gold_rule,
        "confidence": confidence,
        "agreement": document.agreement,
        "segment_position": segment.position,
        "segment_key": segment.key,
        "segment_speaker": segment.speaker,
        "turn_positions": [turn.position for turn in turns],
        "turn_keys": [turn.key for turn in turns],
        "turn_speakers": [turn.speaker for turn in turns],
        "start": turns[0].start,
        "end": turns[-1].end,
        "source": source.text,
        "target": target.text,
        "source_words": source.words,
        "source_sentences": source.sentences,
        "target_words": target.words,
        "target_sentences": target.sentences,
    }


def _first_failed_filter(record: dict[str, Any], options: ExportOptions) -> str | None:
    """The agreement filter drops gold whose annotators agreed on fewer turns than asked;
    gold of one annotator and automatic pairs have no agreement and pass it. Gold pairs pass
    the confidence filter whatever the threshold: it selects automatic pairs. An automatic
    pair without a confidence passes only a threshold of 0."""
    agreement = record["agreement"]
    if agreement is not None and agreement < options.min_agreement:
        return "min_agreement"
    if record["origin"] == "automatic" and options.min_confidence > 0:
        confidence = record["confidence"]
        if confidence is None or confidence < options.min_confidence:
            return "min_confidence"
    words = (record["source_words"], record["target_words"])
    sentences = (record["source_sentences"], record["target_sentences"])
    if min(words) < options.min_words:
        return "min_words"
    if max(words) > options.max_words:
        return "max_words"
    if min(sentences) < options.min_sentences:
        return "min_sentences"
    if max(sentences) > options.max_sentences:
        return "max_sentences"
    return None
