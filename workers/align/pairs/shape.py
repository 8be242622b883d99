"""Pairs: one report segment (the target) with the ordered transcript turns assigned to it
(the source). Segments that no turn is assigned to are not pairs.

Pure functions over one document's rows, so a format never sees more than one document at
a time, and the preview counts exactly what the exports write.
"""

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from workers.align.document_model import UNALIGNED
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
    "turns_accepted_without_review",
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
    accepted_without_review: Sequence[bool] = ()
    """Per turn, whether the gold's annotators accepted it unread in the editor's review mode;
    empty when every turn was read (and for automatic alignments)."""


@dataclass(frozen=True)
class Candidate:
    """A pair before filtering; `rejected_by` names the first filter it fails, or None."""

    record: dict[str, Any]
    rejected_by: str | None


def record_fields(options: ExportOptions) -> tuple[str, ...]:
    return (*FIELDS, ANNOTATOR_LABELS) if options.annotator_labels else FIELDS


def cleaning_of(options: ExportOptions) -> Cleaning:
    return Cleaning(
        remove_tags=options.remove_tags,
        remove_speaker_names=options.remove_speaker_names,
        remove_headings=options.remove_headings,
        remove_unk=options.remove_unk,
    )


def candidates(document: AlignedDocument, options: ExportOptions) -> Iterator[Candidate]:
    cleaning = cleaning_of(options)
    assigned: dict[int, list[int]] = {}
    for turn, label in enumerate(document.labels):
        if label != UNALIGNED:
            assigned.setdefault(label, []).append(turn)
    records = []
    for position in sorted(assigned):
        turns = [document.turns[index] for index in assigned[position]]
        confidence = pair_confidence(document.origin, document.confidences, assigned[position])
        source = _clean_turns(turns, cleaning)
        target = clean(document.segments[position].text, cleaning)
        record = _record(document, document.segments[position], turns, confidence, source, target)
        if options.annotator_labels:
            record[ANNOTATOR_LABELS] = [
                {"annotator": name, "labels": [labels[turn] for turn in assigned[position]]}
                for name, labels in document.annotator_labels.items()
            ]
        records.append(record)
    rejections = failed_filters(PairFigures.of_records(document.origin, records), options)
    for record, rejected_by in zip(records, rejections, strict=True):
        yield Candidate(record, rejected_by)


def pair_confidence(
    origin: Origin, confidences: Sequence[float], turns: Sequence[int]
) -> float | None:
    """A gold pair's is GOLD_CONFIDENCE; an automatic pair's its least confident turn's."""
    if origin == "gold":
        return GOLD_CONFIDENCE
    if not confidences:
        return None
    return round(min(confidences[turn] for turn in turns), 6)


def automatic_pair_confidences(labels: Sequence[int], confidences: Sequence[float]) -> np.ndarray:
    """(pairs,) float64, ascending: `pair_confidence` of each automatic pair of a
    pre-alignment (each report segment given a turn), computed once when the pre-alignment
    is stored, so that counting the pairs that reach a threshold is a binary search
    (`pairs_reaching`) instead of reading every turn's label and confidence again."""
    weakest: dict[int, float] = {}
    for label, value in zip(labels, confidences, strict=True):
        if label != UNALIGNED:
            weakest[label] = min(weakest.get(label, value), value)
    return np.sort(np.array([round(value, 6) for value in weakest.values()], dtype=np.float64))


def pairs_reaching(pair_confidences: np.ndarray, threshold: float) -> int:
    """How many of `automatic_pair_confidences`' pairs have at least `threshold`."""
    return len(pair_confidences) - int(np.searchsorted(pair_confidences, threshold, side="left"))


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
        "turns_accepted_without_review": [
            bool(
                document.accepted_without_review and document.accepted_without_review[turn.position]
            )
            for turn in turns
        ],
        "start": turns[0].start,
        "end": turns[-1].end,
        "source": source.text,
        "target": target.text,
        "source_words": source.words,
        "source_sentences": source.sentences,
        "target_words": target.words,
        "target_sentences": target.sentences,
    }


@dataclass(frozen=True)
class PairFigures:
    """What the filters read of one document's pairs, an entry a pair: the export builds it
    from its records, the preview from stored counts without reading texts."""

    automatic: bool
    agreement: float | None
    confidence: np.ndarray
    """float64; NaN for a pair without a confidence."""
    source_words: np.ndarray
    source_sentences: np.ndarray
    target_words: np.ndarray
    target_sentences: np.ndarray

    @classmethod
    def of_records(cls, origin: Origin, records: Sequence[Mapping[str, Any]]) -> "PairFigures":
        def column(name: str) -> np.ndarray:
            return np.array([record[name] for record in records], dtype=np.int64)

        return cls(
            automatic=origin == "automatic",
            agreement=records[0]["agreement"] if records else None,
            confidence=np.array(
                [np.nan if r["confidence"] is None else r["confidence"] for r in records],
                dtype=np.float64,
            ),
            source_words=column("source_words"),
            source_sentences=column("source_sentences"),
            target_words=column("target_words"),
            target_sentences=column("target_sentences"),
        )


def failed_filters(figures: PairFigures, options: ExportOptions) -> list[str | None]:
    """Per pair, the first of FILTERS it fails, or None. The agreement filter drops gold
    whose annotators agreed on fewer turns than asked; gold of one annotator and automatic
    pairs have no agreement and pass it. Gold pairs pass the confidence filter whatever the
    threshold: it selects automatic pairs. An automatic pair without a confidence passes only
    a threshold of 0. One document's pairs at a time, so a preview of thousands of documents
    tests arrays, not records."""
    passed = len(FILTERS)
    failed = np.full(len(figures.source_words), passed, dtype=np.int64)

    def fails(name: str, condition: np.ndarray | bool) -> None:
        failed[(failed == passed) & condition] = FILTERS.index(name)

    if figures.agreement is not None and figures.agreement < options.min_agreement:
        fails("min_agreement", True)
    if figures.automatic and options.min_confidence > 0:
        fails("min_confidence", ~(figures.confidence >= options.min_confidence))
    words = (figures.source_words, figures.target_words)
    sentences = (figures.source_sentences, figures.target_sentences)
    fails("min_words", np.minimum(*words) < options.min_words)
    fails("max_words", np.maximum(*words) > options.max_words)
    fails("min_sentences", np.minimum(*sentences) < options.min_sentences)
    fails("max_sentences", np.maximum(*sentences) > options.max_sentences)
    outcomes: tuple[str | None, ...] = (*FILTERS, None)
    return [outcomes[index] for index in failed.tolist()]
