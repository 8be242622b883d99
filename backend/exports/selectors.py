"""Reads for exports, in document-id order so that every export of unchanged data comes out
in the same order; read a batch of documents at a time, so that a format holds at most one
batch and a project of thousands of documents costs a few queries per batch, not per
document.

Gold is a document's stored gold (backend.curation.rule says which: an adjudication, else
its annotators' submission when there is one or they agree). Automatic is the document's
current pre-alignment (the promoted parameter set's, else the latest). A gold document's
agreement is its annotators' (`backend.agreement`), on the submissions the gold rule weighs.
"""

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from backend.agreement.selectors import DocumentCoding, document_codings, figures_dict
from backend.alignments.models import Annotation, PreAlignment
from backend.alignments.selectors import current_pre_alignments
from backend.core.ids import batches
from backend.curation.models import Gold, GoldRule
from backend.curation.selectors import gold_by_document, gold_rules
from backend.documents.models import Document, ReportSegment, TranscriptTurn
from backend.exports.unit_counts import DocumentCounts, unit_counts
from backend.ratings.selectors import latest_rated_study, study_estimate
from workers.align.agreement import CodedDocument, agreement
from workers.align.model import UNALIGNED
from workers.align.pairs.options import ExportOptions
from workers.align.pairs.shape import (
    FILTERS,
    AlignedDocument,
    Origin,
    PairFigures,
    SegmentRow,
    TurnRow,
    candidates,
    cleaning_of,
    failed_filters,
    pair_confidence,
)
from workers.align.pairs.split import SPLITS, Split

NOT_EXPORTABLE = (Document.Status.IMPORTING, Document.Status.IMPORT_FAILED)


@dataclass(frozen=True)
class DocumentHead:
    id: int
    name: str
    source: str
    iteration: int | None

    @property
    def meeting(self) -> str:
        """The meeting's stable key: the document's source when it names one (e.g.
        `public_meetings:<hash>`), else the document's id."""
        if self.source and self.source != "upload":
            return self.source
        return f"document-{self.id}"


def document_heads(*, project_id: int) -> list[DocumentHead]:
    """Ids and names only: small even for a large project."""
    rows = (
        Document.objects.filter(project_id=project_id)
        .exclude(status__in=NOT_EXPORTABLE)
        .order_by("pk")
        .values_list("pk", "name", "source", "iteration__number")
    )
    return [DocumentHead(*row) for row in rows]


@dataclass(frozen=True)
class GoldCoding:
    """A gold document's annotators' labels (by username) and their agreement by turns."""

    coded: CodedDocument
    agreement: float | None


def gold_codings(*, golds: Mapping[int, Gold], every_annotator: bool) -> dict[int, GoldCoding]:
    """The codings of gold documents that have an agreement (more than one annotator's
    submission counted), or of every gold document when `every_annotator` (an export that
    lists each annotator's labels): coding means reading every submission. A gold of one
    annotator is that annotator's labels even when the document's assignees have changed
    since (gold imported by a lead, then assigned to annotators who have not submitted): its
    annotation says whose they are."""
    codings = _codings(
        [pk for pk, gold in golds.items() if every_annotator or _has_agreement(gold.rule)]
    )
    if every_annotator:
        _fill_single_annotator_gold(golds, codings)
    return codings


def _fill_single_annotator_gold(golds: Mapping[int, Gold], codings: dict[int, GoldCoding]) -> None:
    uncoded = {
        gold.annotation_id: pk
        for pk, gold in golds.items()
        if gold.rule == GoldRule.SINGLE_ANNOTATOR
        and gold.annotation_id is not None
        and pk in codings
        and not codings[pk].coded.labels
    }
    for annotation_id, username in Annotation.objects.filter(pk__in=uncoded).values_list(
        "pk", "annotator__username"
    ):
        pk = uncoded[annotation_id]
        coded = codings[pk].coded
        codings[pk] = GoldCoding(
            coded=CodedDocument(
                labels={username: list(golds[pk].labels)}, word_counts=coded.word_counts
            ),
            agreement=None,
        )


def _has_agreement(rule: str) -> bool:
    return rule != GoldRule.SINGLE_ANNOTATOR


def _codings(document_ids: Sequence[int]) -> dict[int, GoldCoding]:
    if not document_ids:
        return {}
    codings = document_codings(documents=Document.objects.filter(pk__in=document_ids))
    return {coding.document_id: _gold_coding(coding) for coding in codings}


def _gold_coding(coding: DocumentCoding) -> GoldCoding:
    coded = CodedDocument(
        labels={coding.usernames[user]: labels for user, labels in coding.labels.items()},
        word_counts=coding.word_counts,
    )
    shared = agreement([coded]).overall.turn_agreement if len(coded.labels) >= 2 else None
    return GoldCoding(coded=coded, agreement=shared)


def segment_rows(*, document_ids: Sequence[int]) -> dict[int, list[SegmentRow]]:
    rows: dict[int, list[SegmentRow]] = {pk: [] for pk in document_ids}
    for document_id, position, key, text, speaker in (
        ReportSegment.objects.filter(document_id__in=document_ids)
        .order_by("document_id", "position")
        .values_list("document_id", "position", "key", "text", "speaker")
    ):
        rows[document_id].append(SegmentRow(position, key, text, speaker))
    return rows


def turn_rows(*, document_ids: Sequence[int]) -> dict[int, list[TurnRow]]:
    """Without the per-word ASR timings, the largest column by far."""
    rows: dict[int, list[TurnRow]] = {pk: [] for pk in document_ids}
    fields = ("position", "key", "text", "speaker", "start", "end")
    for document_id, *row in (
        TranscriptTurn.objects.filter(document_id__in=document_ids)
        .order_by("document_id", "position")
        .values_list("document_id", *fields)
    ):
        rows[document_id].append(TurnRow(*row))
    return rows


def head_batches(*, project_id: int) -> Iterator[Sequence[DocumentHead]]:
    """The project's documents a batch at a time (`backend.core.ids.IDS_PER_BATCH`): each
    batch's reads are a few queries, and only one batch's texts are held at once."""
    yield from batches(document_heads(project_id=project_id))


def split_of_head(head: DocumentHead, options: ExportOptions) -> Split:
    return options.split_of(head.meeting)


@dataclass(frozen=True)
class DocumentAlignment:
    """What an export reads from one document besides its texts."""

    head: DocumentHead
    split: Split
    origin: Origin
    labels: Sequence[int]
    confidences: Sequence[float]
    gold_rule: str | None
    coding: GoldCoding | None


def alignment_batches(
    *, project_id: int, options: ExportOptions, splits: Sequence[Split] = SPLITS
) -> Iterator[list[DocumentAlignment]]:
    """Documents with gold, and, when automatic pairs are included, the others that have a
    pre-alignment; only those whose meeting falls in `splits`; a batch at a time."""
    for heads in head_batches(project_id=project_id):
        heads = [head for head in heads if split_of_head(head, options) in splits]
        ids = [head.id for head in heads]
        golds = gold_by_document(document_ids=ids)
        codings = gold_codings(golds=golds, every_annotator=options.annotator_labels)
        automatic = current_pre_alignments(
            document_ids=[pk for pk in ids if pk not in golds] if options.include_automatic else []
        )
        batch = []
        for head in heads:
            gold = golds.get(head.id)
            origin: Origin
            if gold is not None:
                origin, labels, confidences, rule = "gold", gold.labels, [], gold.rule
            elif head.id in automatic:
                pre_alignment = automatic[head.id]
                origin, labels, rule = "automatic", pre_alignment.labels, None
                confidences = pre_alignment.confidences
            else:
                continue
            batch.append(
                DocumentAlignment(
                    head=head,
                    split=split_of_head(head, options),
                    origin=origin,
                    labels=labels,
                    confidences=confidences,
                    gold_rule=rule,
                    coding=codings.get(head.id),
                )
            )
        yield batch


def aligned_documents(
    *, project_id: int, options: ExportOptions, splits: Sequence[Split] = SPLITS
) -> Iterator[AlignedDocument]:
    """The exported documents (see `alignment_batches`) with their texts."""
    for batch in alignment_batches(project_id=project_id, options=options, splits=splits):
        ids = [alignment.head.id for alignment in batch]
        segments = segment_rows(document_ids=ids)
        turns = turn_rows(document_ids=ids)
        for alignment in batch:
            head, coding = alignment.head, alignment.coding
            yield AlignedDocument(
                id=head.id,
                name=head.name,
                meeting=head.meeting,
                iteration=head.iteration,
                split=alignment.split,
                origin=alignment.origin,
                labels=alignment.labels,
                confidences=alignment.confidences,
                segments=segments[head.id],
                turns=turns[head.id],
                gold_rule=alignment.gold_rule,
                agreement=coding.agreement if coding else None,
                annotator_labels=coding.coded.labels if coding else {},
            )


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


def export_preview(*, project_id: int, options: ExportOptions) -> dict[str, Any]:
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
) -> dict[str, Any]:
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
    steps = []
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
        "pairs_before_filters": {"total": found.total(), **_by_origin(found)},
        "filters": steps,
        "pairs": {"total": kept.total(), **_by_origin(kept)},
        "splits": {
            split: {"meetings": len(split_meetings[split]), "pairs": split_pairs[split]}
            for split in SPLITS
        },
        "agreement": corpus_agreement(project_id=project_id, options=options),
        "rating": rating_estimate(project_id=project_id, options=options),
        "options": options.as_dict(),
    }


def rating_estimate(*, project_id: int, options: ExportOptions) -> dict[str, Any] | None:
    """The latest rating study's estimate of the share of good automatic pairs at the
    export's min_confidence; None when no study has rated any."""
    study = latest_rated_study(project_id=project_id)
    if study is None:
        return None
    return study_estimate(study=study, min_confidence=options.min_confidence)


def corpus_agreement(*, project_id: int, options: ExportOptions) -> dict[str, Any]:
    """The annotators' agreement pooled over the gold documents the export keeps that two
    or more of them annotated (the agreement filter applied), overall and per pair."""
    kept = []
    for heads in head_batches(project_id=project_id):
        rules = gold_rules(document_ids=[head.id for head in heads])
        shared = [pk for pk, rule in rules.items() if _has_agreement(rule)]
        for coding in _codings(shared).values():
            if coding.agreement is not None and coding.agreement >= options.min_agreement:
                kept.append(coding.coded)
    report = agreement(kept)
    return {
        "overall": figures_dict(report.overall),
        "pairs": [figures_dict(pair) for pair in report.pairs if pair.units],
    }


def _by_origin(counts: Counter[str]) -> dict[str, int]:
    return {"gold": counts["gold"], "automatic": counts["automatic"]}


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
