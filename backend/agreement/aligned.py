"""The project's documents as aligned pairs: each document with gold (and, for gold that weighs
several annotators' submissions, their labels and agreement), or else, when automatic pairs
are wanted, its current pre-alignment (the promoted parameter set's, else the latest); in
document-id order and a batch of documents at a time, so that every read of unchanged data
comes out in the same order and a project of thousands of documents costs a few queries per
batch. What the exports write, the rating studies sample and the salience labels read.

Gold is a document's stored gold (backend.curation.rule says which: an adjudication, else
its annotators' submission when there is one or they agree).
"""

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from backend.agreement.selectors import DocumentCoding, document_codings
from backend.alignments.models import Annotation
from backend.alignments.selectors import current_pre_alignments
from backend.core.ids import batches
from backend.curation.models import Gold, GoldRule
from backend.curation.selectors import gold_by_document
from backend.documents.models import Document, ReportSegment, TranscriptTurn
from workers.align.annotation.agreement import CodedDocument, agreement
from workers.align.pairs.options import ExportOptions
from workers.align.pairs.shape import AlignedDocument, Origin, SegmentRow, TurnRow
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
    codings = document_gold_codings(
        [pk for pk, gold in golds.items() if every_annotator or rule_has_agreement(gold.rule)]
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


def rule_has_agreement(rule: str) -> bool:
    return rule != GoldRule.SINGLE_ANNOTATOR


def document_gold_codings(document_ids: Sequence[int]) -> dict[int, GoldCoding]:
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
    accepted_without_review: Sequence[bool] = ()


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
                    accepted_without_review=gold.accepted_without_review if gold else (),
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
                accepted_without_review=alignment.accepted_without_review,
            )
