"""Agreement between a project's annotators, read from their submitted annotations and
computed by the engine's measures (`workers.align.annotation.agreement`).

The annotations that count are the ones the gold rule counts (`backend.curation.rule`): a
document's assignees' submissions, every submission when it has no assignees.
Nothing is stored: figures follow the annotations as they are now.
"""

from collections import defaultdict
from dataclasses import dataclass, field
from typing import NotRequired, TypedDict, cast

from django.db.models import QuerySet

from backend.alignments.models import Annotation
from backend.curation.models import GoldRule
from backend.curation.rule import Submission, decide_gold
from backend.curation.selectors import gold_by_document
from backend.documents.models import Document, TranscriptTurn
from backend.iterations.accuracy import summarise
from backend.iterations.models import Iteration
from workers.align.annotation.agreement import MEASURES, Agreement, CodedDocument, agreement


@dataclass
class DocumentCoding:
    """One document's counted submissions: labels and seconds spent, by annotator id."""

    document_id: int
    name: str
    iteration_id: int | None
    word_counts: list[int]
    labels: dict[int, list[int]] = field(default_factory=dict)
    seconds: dict[int, int] = field(default_factory=dict)
    usernames: dict[int, str] = field(default_factory=dict)

    def coded(self) -> CodedDocument:
        return CodedDocument(labels=self.labels, word_counts=self.word_counts)


def document_codings(*, documents: QuerySet[Document]) -> list[DocumentCoding]:
    """Three queries for any number of documents, in the queryset's order."""
    heads = list(documents.values_list("pk", "name", "iteration_id"))
    ids = [pk for pk, _, _ in heads]
    words: dict[int, list[int]] = defaultdict(list)
    for document_id, count in (
        TranscriptTurn.objects.filter(document_id__in=ids)
        .order_by("document_id", "position")
        .values_list("document_id", "word_count")
    ):
        words[document_id].append(count)
    assignees: dict[int, set[int]] = defaultdict(set)
    for document_id, user_id in Document.assignees.through.objects.filter(
        document_id__in=ids
    ).values_list("document_id", "user_id"):
        assignees[document_id].add(user_id)
    codings = {pk: DocumentCoding(pk, name, iteration, words[pk]) for pk, name, iteration in heads}
    submissions: dict[int, list[tuple]] = defaultdict(list)
    for row in (
        Annotation.objects.filter(document_id__in=ids, submitted_at__isnull=False)
        .order_by("document_id", "submitted_at", "pk")
        .values_list(
            "document_id", "pk", "annotator_id", "annotator__username", "assignments",
            "seconds_spent",
        )
    ):  # fmt: skip
        submissions[row[0]].append(row[1:])
    for document_id, rows in submissions.items():
        decision = decide_gold(
            assignee_ids=sorted(assignees[document_id]),
            submissions=[
                Submission(pk, annotator, tuple(labels)) for pk, annotator, _, labels, _ in rows
            ],
            adjudication=None,
        )
        counted = {submission.annotation_id for submission in decision.counted}
        coding = codings[document_id]
        for pk, annotator, username, labels, seconds in rows:
            if pk in counted:
                coding.labels[annotator] = labels
                coding.seconds[annotator] = seconds
                coding.usernames[annotator] = username
    return [codings[pk] for pk in ids]


class Measures(TypedDict):
    """An `Agreement`'s figures without its coders."""

    documents: int
    units: int
    unit_words: int
    turn_agreement: float | None
    word_agreement: float | None
    kappa: float | None
    alpha: float | None
    unaligned_agreement: float | None
    windowdiff: float | None
    pk: float | None


class Figures(Measures):
    """An `Agreement` for an API: `annotators` (user ids) only when the coders are users."""

    annotators: NotRequired[list[int]]
    usernames: list[str]


class DocumentAgreement(Figures):
    document: int
    name: str
    pairs: list[Figures]


class IterationAgreement(TypedDict):
    iteration: Iteration
    documents: list[DocumentAgreement]
    summary: dict[str, dict[str, float | int | None]]
    overall: Figures
    pairs: list[Figures]


class GoldAgreement(Measures):
    username: str


class AgreementSummary(TypedDict):
    documents: int
    overall: Figures
    pairs: list[Figures]
    against_gold: list[GoldAgreement]


class AnnotatorQuality(TypedDict):
    """One annotator in one iteration; `against_gold` holds the agreement measures of
    `workers.align.agreement` (None without an adjudicated document)."""

    iteration: int
    number: int
    annotator: int
    username: str
    submitted_documents: int
    seconds_spent: int
    seconds_per_document: float
    against_gold: Measures | None


def agreement_by_iteration(*, project_id: int) -> list[IterationAgreement]:
    """Per iteration: each document annotated twice or more with its figures (overall and per
    pair), their distribution per measure (a box per iteration), and the figures pooled over
    the iteration's documents, overall and per pair of annotators who shared a document."""
    iterations, codings = _codings_by_iteration(project_id)
    names = _names(codings)
    return [
        _iteration_agreement(iteration, codings[iteration.pk], names) for iteration in iterations
    ]


def iteration_agreement_summary(*, iteration: Iteration) -> AgreementSummary:
    """One iteration's figures pooled over its doubly annotated documents, overall and per
    pair, and each annotator's against the adjudicated gold (the simulation reports them)."""
    codings = document_codings(documents=Document.objects.filter(iteration=iteration))
    row = _iteration_agreement(iteration, codings, _names({iteration.pk: codings}))
    return {
        "documents": len(row["documents"]),
        "overall": row["overall"],
        "pairs": row["pairs"],
        "against_gold": [
            {"username": quality["username"], **against_gold}
            for quality in annotator_quality(project_id=iteration.project_id)
            if quality["iteration"] == iteration.pk
            and (against_gold := quality["against_gold"]) is not None
        ],
    }


def annotator_quality(*, project_id: int) -> list[AnnotatorQuality]:
    """Per iteration and annotator: their submissions, the time they took per document, and
    their agreement with the adjudicated gold, on the documents whose gold an adjudication
    decided (elsewhere the gold is their own or identical submissions)."""
    iterations, codings = _codings_by_iteration(project_id)
    golds = gold_by_document(
        document_ids=[coding.document_id for group in codings.values() for coding in group]
    )
    names = _names(codings)
    rows: list[AnnotatorQuality] = []
    for iteration in iterations:
        group = codings[iteration.pk]
        for annotator in sorted({a for c in group for a in c.labels}, key=lambda a: names[a]):
            mine = [coding for coding in group if annotator in coding.labels]
            adjudicated = [
                CodedDocument(
                    labels={
                        annotator: coding.labels[annotator],
                        GOLD: golds[coding.document_id].labels,
                    },
                    word_counts=coding.word_counts,
                )
                for coding in mine
                if coding.document_id in golds
                and golds[coding.document_id].rule == GoldRule.ADJUDICATED
            ]
            seconds = sum(coding.seconds[annotator] for coding in mine)
            rows.append(
                {
                    "iteration": iteration.pk,
                    "number": iteration.number,
                    "annotator": annotator,
                    "username": names[annotator],
                    "submitted_documents": len(mine),
                    "seconds_spent": seconds,
                    "seconds_per_document": seconds / len(mine),
                    "against_gold": (
                        _measures(agreement(adjudicated).overall) if adjudicated else None
                    ),
                }
            )
    return rows


GOLD = "gold"
"""The adjudicated gold, as the second coder when an annotator is compared with it."""


def _codings_by_iteration(
    project_id: int,
) -> tuple[list[Iteration], dict[int, list[DocumentCoding]]]:
    iterations = list(
        Iteration.objects.filter(project_id=project_id)
        .select_related("pre_align_job", "tuning_run__job")
        .order_by("number")
    )
    codings: dict[int, list[DocumentCoding]] = defaultdict(list)
    documents = Document.objects.filter(project_id=project_id, iteration__isnull=False)
    for coding in document_codings(documents=documents.order_by("name", "pk")):
        if coding.iteration_id is not None:
            codings[coding.iteration_id].append(coding)
    return iterations, codings


def _names(codings: dict[int, list[DocumentCoding]]) -> dict[int, str]:
    return {
        annotator: username
        for group in codings.values()
        for coding in group
        for annotator, username in coding.usernames.items()
    }


def _measures(figures: Agreement) -> Measures:
    return {
        "documents": figures.documents,
        "units": figures.units,
        "unit_words": figures.unit_words,
        "turn_agreement": figures.turn_agreement,
        "word_agreement": figures.word_agreement,
        "kappa": figures.kappa,
        "alpha": figures.alpha,
        "unaligned_agreement": figures.unaligned_agreement,
        "windowdiff": figures.windowdiff,
        "pk": figures.pk,
    }


def _iteration_agreement(
    iteration: Iteration, codings: list[DocumentCoding], names: dict[int, str]
) -> IterationAgreement:
    shared = [coding for coding in codings if len(coding.labels) >= 2]
    documents: list[DocumentAgreement] = []
    overalls: list[Agreement] = []
    for coding in shared:
        report = agreement([coding.coded()])
        overalls.append(report.overall)
        documents.append(
            {
                "document": coding.document_id,
                "name": coding.name,
                **figures_dict(report.overall, names),
                "pairs": [figures_dict(pair, names) for pair in report.pairs],
            }
        )
    pooled = agreement([coding.coded() for coding in shared])
    return {
        "iteration": iteration,
        "documents": documents,
        "summary": {
            measure: summarise(
                [
                    getattr(figures, measure)
                    for figures in overalls
                    if getattr(figures, measure) is not None
                ]
            )
            for measure in MEASURES
        },
        "overall": figures_dict(pooled.overall, names),
        "pairs": [figures_dict(pair, names) for pair in pooled.pairs if pair.units],
    }


def figures_dict(figures: Agreement, names: dict[int, str] | None = None) -> Figures:
    """An `Agreement` for an API: coders as user ids with their `usernames` (when `names`
    maps ids to usernames), or as usernames alone (when the coders are usernames)."""
    if names is None:
        return {"usernames": cast(list[str], list(figures.coders)), **_measures(figures)}
    annotators = cast(list[int], list(figures.coders))
    return {
        "annotators": annotators,
        "usernames": [names.get(annotator, str(annotator)) for annotator in annotators],
        **_measures(figures),
    }
