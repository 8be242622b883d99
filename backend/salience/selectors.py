"""Salience labels of a project's transcript units (the podcast paper's training labels) and
the description cleaning they read.

Everything here is computed from the stored texts on each read, never stored: the cleaning's
IDF is taken over the project's whole set of descriptions, which every import changes, and a
unit's ROUGE-2 against a description is a few set intersections. Automatic labels come from
the engine (`workers.align.podcasts.salience`); a gold label says that the document's gold
aligns the unit to some report segment.
"""

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from backend.agreement.aligned import DocumentHead, head_batches, turn_rows
from backend.curation.selectors import gold_by_document
from backend.documents.models import Document, ReportSegment
from backend.projects.models import Project
from backend.projects.podcasts import cleans_descriptions, salience_config
from workers.align.document_model import UNALIGNED
from workers.align.podcasts.descriptions import (
    DescriptionVocabulary,
    ScoredSentence,
    clean_description,
    description_vocabulary,
)
from workers.align.podcasts.salience import (
    LabelAgreement,
    UnitSalience,
    label_agreement,
    label_units,
)


@dataclass(frozen=True)
class DocumentCleaning:
    document_id: int
    document_name: str
    sentences: tuple[ScoredSentence, ...]


@dataclass(frozen=True)
class UnitLabel:
    position: int
    key: str
    text: str
    start: float | None
    end: float | None
    automatic: UnitSalience
    best_sentence: str | None
    gold: bool | None
    """Aligned to some report segment by the document's gold; None without gold."""


@dataclass(frozen=True)
class DocumentSalience:
    head: DocumentHead
    units: tuple[UnitLabel, ...]
    description: tuple[str, ...]
    """The sentences the units were scored against (the kept ones when the project cleans)."""


@dataclass(frozen=True)
class IterationSalienceAgreement:
    iteration: int | None
    documents: int
    agreement: LabelAgreement


@dataclass(frozen=True)
class SalienceAgreement:
    iterations: tuple[IterationSalienceAgreement, ...]
    overall: LabelAgreement
    documents: int


@dataclass(frozen=True)
class SalienceSummary:
    units: int
    automatic_positive: int
    candidates: int
    candidate_positive: int
    gold_units: int
    gold_positive: int


def description_sentences(*, document_ids: Sequence[int]) -> dict[int, list[str]]:
    """Each document's report sentences in order: a podcast description's segments are one
    sentence each; another report's segments give all their sentences."""
    sentences: dict[int, list[str]] = {pk: [] for pk in document_ids}
    for document_id, segment_sentences in (
        ReportSegment.objects.filter(document_id__in=document_ids)
        .order_by("document_id", "position")
        .values_list("document_id", "sentences")
    ):
        sentences[document_id].extend(segment_sentences)
    return sentences


def project_vocabulary(*, project: Project) -> DescriptionVocabulary:
    descriptions: list[list[str]] = []
    for heads in head_batches(project_id=project.pk):
        descriptions.extend(
            description_sentences(document_ids=[head.id for head in heads]).values()
        )
    return description_vocabulary(descriptions)


def description_cleaning(*, project: Project) -> Iterator[DocumentCleaning]:
    """Every description's sentences with their IDF salience and whether cleaning keeps them,
    whether or not the project cleans: the lead reads this before turning cleaning on."""
    vocabulary = project_vocabulary(project=project)
    for heads in head_batches(project_id=project.pk):
        sentences = description_sentences(document_ids=[head.id for head in heads])
        for head in heads:
            yield DocumentCleaning(
                head.id, head.name, clean_description(sentences[head.id], vocabulary)
            )


def document_salience(
    *, project: Project, document_ids: Sequence[int] | None = None
) -> Iterator[DocumentSalience]:
    """The project's documents (or those of `document_ids`) in id order, a batch at a time."""
    config = salience_config(project)
    vocabulary = project_vocabulary(project=project) if cleans_descriptions(project) else None
    wanted = None if document_ids is None else set(document_ids)
    for heads in head_batches(project_id=project.pk):
        heads = [head for head in heads if wanted is None or head.id in wanted]
        ids = [head.id for head in heads]
        sentences = description_sentences(document_ids=ids)
        turns = turn_rows(document_ids=ids)
        golds = gold_by_document(document_ids=ids)
        for head in heads:
            description = sentences[head.id]
            if vocabulary is not None:
                scored = clean_description(description, vocabulary)
                description = [sentence.text for sentence in scored if sentence.kept]
            rows = turns[head.id]
            labels = label_units([row.text for row in rows], description, config)
            gold = golds.get(head.id)
            yield DocumentSalience(
                head=head,
                description=tuple(description),
                units=tuple(
                    UnitLabel(
                        position=row.position,
                        key=row.key,
                        text=row.text,
                        start=row.start,
                        end=row.end,
                        automatic=label,
                        best_sentence=None
                        if label.sentence is None
                        else description[label.sentence],
                        gold=None if gold is None else gold.labels[row.position] != UNALIGNED,
                    )
                    for row, label in zip(rows, labels, strict=True)
                ),
            )


def salience_summary(*, project: Project) -> SalienceSummary:
    counts = dict.fromkeys(SalienceSummary.__dataclass_fields__, 0)
    for document in document_salience(project=project):
        for unit in document.units:
            counts["units"] += 1
            counts["automatic_positive"] += unit.automatic.salient
            counts["candidates"] += unit.automatic.candidate
            counts["candidate_positive"] += unit.automatic.candidate and unit.automatic.salient
            if unit.gold is not None:
                counts["gold_units"] += 1
                counts["gold_positive"] += unit.gold
    return SalienceSummary(**counts)


def salience_agreement(*, project: Project) -> SalienceAgreement:
    """How far the ROUGE rule agrees with the gold labels over the gold documents, per
    iteration (None: gold outside any iteration) and overall."""
    gold_ids = list(
        Document.objects.filter(project=project, gold__isnull=False).values_list("pk", flat=True)
    )
    by_iteration: dict[int | None, tuple[list[bool], list[bool], set[int]]] = {}
    for document in document_salience(project=project, document_ids=gold_ids):
        automatic, gold, documents = by_iteration.setdefault(
            document.head.iteration, ([], [], set())
        )
        documents.add(document.head.id)
        for unit in document.units:
            automatic.append(unit.automatic.salient)
            gold.append(bool(unit.gold))
    ordered = sorted(by_iteration.items(), key=lambda item: (item[0] is None, item[0] or 0))
    return SalienceAgreement(
        iterations=tuple(
            IterationSalienceAgreement(number, len(documents), label_agreement(automatic, gold))
            for number, (automatic, gold, documents) in ordered
        ),
        overall=label_agreement(
            [label for _, (labels, _, _) in ordered for label in labels],
            [label for _, (_, labels, _) in ordered for label in labels],
        ),
        documents=len(gold_ids),
    )


def _sentence(description: Sequence[str], index: int | None) -> str | None:
    return None if index is None else description[index]
