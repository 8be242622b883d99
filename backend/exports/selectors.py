"""Reads for exports: the project's aligned documents (`backend.agreement.aligned`, in
document-id order, a batch at a time) as the records the formats write, the preview's
counts, the rating estimate and agreement a dataset card quotes, and the public_meetings
dump. A gold document's agreement is its annotators' (`backend.agreement`), on the
submissions the gold rule weighs.
"""

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

import numpy as np

from backend.agreement.aligned import (
    DocumentAlignment,
    DocumentHead,
    aligned_documents,
    alignment_batches,
    document_gold_codings,
    document_heads,
    head_batches,
    rule_has_agreement,
    segment_rows,
    turn_rows,
)
from backend.agreement.selectors import Figures, figures_dict
from backend.alignments.models import PreAlignment
from backend.alignments.selectors import current_pre_alignments
from backend.curation.selectors import gold_by_document, gold_rules
from backend.exports.unit_counts import DocumentCounts, unit_counts
from backend.ratings.selectors import StudyEstimate, latest_rated_study, study_estimate
from workers.align.annotation.agreement import agreement
from workers.align.document_model import UNALIGNED
from workers.align.pairs.options import ExportOptions
from workers.align.pairs.shape import (
    FILTERS,
    PairFigures,
    SegmentRow,
    TurnRow,
    candidates,
    cleaning_of,
    failed_filters,
    pair_confidence,
)
from workers.align.pairs.split import SPLITS, Split


def export_records(
    *, project_id: int, options: ExportOptions, splits: Sequence[Split] = SPLITS
) -> Iterator[dict[str, Any]]:
    """The pairs that pass every filter, as flat records (see `pairs.FIELDS`)."""
    for document in aligned_documents(project_id=project_id, options=options, splits=splits):
        for candidate in candidates(document, options):
            if candidate.rejected_by is None:
                yield candidate.record


@dataclass(frozen=True)
class PairOutcome:
    """Where one candidate pair went: the first filter that dropped it, or its split."""

    origin: str
    split: Split
    meeting: str
    rejected_by: str | None


class OriginCounts(TypedDict):
    total: int
    gold: int
    automatic: int


class FilterStep(TypedDict):
    """One filter of `FILTERS` with its value, the pairs it removed and those left after it."""

    filter: str
    value: Any
    removed: int
    kept: int


class SplitCounts(TypedDict):
    meetings: int
    pairs: int


class CorpusAgreement(TypedDict):
    """`figures_dict`s (backend.agreement.selectors), pooled and per pair of annotators."""

    overall: Figures
    pairs: list[Figures]


class ExportPreview(TypedDict):
    documents: OriginCounts
    pairs_before_filters: OriginCounts
    filters: list[FilterStep]
    pairs: OriginCounts
    splits: dict[str, SplitCounts]
    agreement: CorpusAgreement
    rating: StudyEstimate | None
    options: dict[str, Any]


def export_preview(*, project_id: int, options: ExportOptions) -> ExportPreview:
    """How many pairs each filter keeps, applied in order, and where the kept ones go.

    The filters read only each pair's lengths, confidence and agreement: the lengths are
    sums of the stored counts of its turns and of its segment (`unit_counts`), so no text
    is read or cleaned. `tests/exports/test_preview_counts.py` holds this equal to filtering
    the export's own records."""
    cleaning = cleaning_of(options)
    documents: Counter[str] = Counter()
    outcomes: Counter[PairOutcome] = Counter()
    for batch in alignment_batches(project_id=project_id, options=options):
        counts = unit_counts(
            document_ids=[alignment.head.id for alignment in batch], cleaning=cleaning
        )
        for alignment in batch:
            documents[alignment.origin] += 1
            head = alignment.head
            figures = _pair_figures(alignment, counts[head.id], options)
            for rejected_by, pairs in Counter(failed_filters(figures, options)).items():
                outcome = PairOutcome(alignment.origin, alignment.split, head.meeting, rejected_by)
                outcomes[outcome] += pairs
    return preview_summary(
        project_id=project_id, options=options, documents=documents, outcomes=outcomes
    )


def _pair_figures(
    alignment: DocumentAlignment, counts: DocumentCounts, options: ExportOptions
) -> PairFigures:
    """What the filters read of the document's pairs, in segment order: each pair's turns'
    counts summed, its segment's counts, and its confidence where a filter reads it (an
    automatic pair's, under a confidence threshold; NaN elsewhere)."""
    labels = np.asarray(alignment.labels, dtype=np.int64)
    aligned = np.flatnonzero(labels != UNALIGNED)
    in_pairs = aligned[np.argsort(labels[aligned], kind="stable")]
    positions, starts = np.unique(labels[in_pairs], return_index=True)
    sources = (
        np.add.reduceat(counts.turns[in_pairs], starts, axis=0)
        if len(in_pairs)
        else np.zeros((0, 2), dtype=np.int64)
    )
    targets = counts.segments[positions]
    confidences = (
        [
            pair_confidence(alignment.origin, alignment.confidences, turns.tolist())
            for turns in np.split(in_pairs, starts[1:])
        ]
        if alignment.origin == "automatic" and options.min_confidence > 0 and len(in_pairs)
        else [None] * len(positions)
    )
    return PairFigures(
        automatic=alignment.origin == "automatic",
        agreement=alignment.coding.agreement if alignment.coding else None,
        confidence=np.array(
            [np.nan if value is None else value for value in confidences], dtype=np.float64
        ),
        source_words=sources[:, 0],
        source_sentences=sources[:, 1],
        target_words=targets[:, 0],
        target_sentences=targets[:, 1],
    )


def preview_summary(
    *,
    project_id: int,
    options: ExportOptions,
    documents: Counter[str],
    outcomes: Counter[PairOutcome],
) -> ExportPreview:
    """The preview of exported documents by origin and their pairs' outcomes (how many
    pairs had each)."""
    found: Counter[str] = Counter()
    removed: Counter[str] = Counter()
    kept: Counter[str] = Counter()
    split_pairs: Counter[str] = Counter()
    split_meetings: dict[str, set[str]] = {split: set() for split in SPLITS}
    for outcome, pairs in outcomes.items():
        found[outcome.origin] += pairs
        if outcome.rejected_by is not None:
            removed[outcome.rejected_by] += pairs
            continue
        kept[outcome.origin] += pairs
        split_pairs[outcome.split] += pairs
        split_meetings[outcome.split].add(outcome.meeting)
    remaining = found.total()
    steps: list[FilterStep] = []
    for name in FILTERS:
        remaining -= removed[name]
        steps.append(
            {
                "filter": name,
                "value": getattr(options, name),
                "removed": removed[name],
                "kept": remaining,
            }
        )
    return {
        "documents": {
            "total": len(document_heads(project_id=project_id)),
            "gold": documents["gold"],
            "automatic": documents["automatic"],
        },
        "pairs_before_filters": _by_origin(found),
        "filters": steps,
        "pairs": _by_origin(kept),
        "splits": {
            split: {"meetings": len(split_meetings[split]), "pairs": split_pairs[split]}
            for split in SPLITS
        },
        "agreement": corpus_agreement(project_id=project_id, options=options),
        "rating": rating_estimate(project_id=project_id, options=options),
        "options": options.as_dict(),
    }


def rating_estimate(*, project_id: int, options: ExportOptions) -> StudyEstimate | None:
    """The latest rating study's estimate of the share of good automatic pairs at the
    export's min_confidence; None when no study has rated any."""
    study = latest_rated_study(project_id=project_id)
    if study is None:
        return None
    return study_estimate(study=study, min_confidence=options.min_confidence)


def corpus_agreement(*, project_id: int, options: ExportOptions) -> CorpusAgreement:
    """The annotators' agreement pooled over the gold documents the export keeps that two
    or more of them annotated (the agreement filter applied), overall and per pair."""
    kept = []
    for heads in head_batches(project_id=project_id):
        rules = gold_rules(document_ids=[head.id for head in heads])
        shared = [pk for pk, rule in rules.items() if rule_has_agreement(rule)]
        for coding in document_gold_codings(shared).values():
            if coding.agreement is not None and coding.agreement >= options.min_agreement:
                kept.append(coding.coded)
    report = agreement(kept)
    return {
        "overall": figures_dict(report.overall),
        "pairs": [figures_dict(pair) for pair in report.pairs if pair.units],
    }


def _by_origin(counts: Counter[str]) -> OriginCounts:
    return {"total": counts.total(), "gold": counts["gold"], "automatic": counts["automatic"]}


@dataclass(frozen=True)
class DocumentDump:
    """Everything the public_meetings layout carries for one document."""

    head: DocumentHead
    segments: list[SegmentRow]
    turns: list[TurnRow]
    pre_alignment: PreAlignment | None
    gold: list[int] | None
    accepted_without_review: list[bool]
    """Per gold turn, accepted unread in the review mode; empty when none (or no gold)."""


def document_dumps(*, project_id: int) -> Iterator[DocumentDump]:
    for heads in head_batches(project_id=project_id):
        ids = [head.id for head in heads]
        golds = gold_by_document(document_ids=ids)
        pre_alignments = current_pre_alignments(document_ids=ids)
        segments, turns = segment_rows(document_ids=ids), turn_rows(document_ids=ids)
        for head in heads:
            gold = golds.get(head.id)
            yield DocumentDump(
                head=head,
                segments=segments[head.id],
                turns=turns[head.id],
                pre_alignment=pre_alignments.get(head.id),
                gold=gold.labels if gold is not None else None,
                accepted_without_review=gold.accepted_without_review if gold is not None else [],
            )
