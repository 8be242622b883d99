"""Tandem's proposal of the next iteration's batch: which documents to annotate, and why each
(`workers.align.annotation.selection` chooses; this reads what it needs from the project).

A read only: uncertainty ranks documents by the current pre-alignment's stored confidences,
and a candidate that has none is listed as such rather than pre-aligned behind the lead's
back (they can pre-align it from the documents page, or open the batch without it).
"""

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from backend.alignments.selectors import current_pre_alignments
from backend.documents.models import Document, TranscriptTurn
from backend.iterations.gold import gold_documents
from backend.projects.models import Project
from workers.align.annotation.selection import (
    Choice,
    SelectionPolicy,
    diversity_choice,
    document_vector,
    random_choice,
    uncertainty_choice,
)
from workers.align.scoring.lexical import DIMENSIONS

READY_FOR_BATCH = (
    Document.Status.IMPORTED,
    Document.Status.PRE_ALIGNED,
    Document.Status.IN_ANNOTATION,
    Document.Status.SUBMITTED,
)

DEFAULT_POLICY = SelectionPolicy.RANDOM
"""What the open-iteration form proposes first (BatchProposalPanel.tsx starts on it too).
Random until a policy measures better than random in the simulation's comparison
(docs/bootstrap.md, Choosing the batch)."""


@dataclass(frozen=True)
class ProposedDocument:
    id: int
    name: str
    score: float
    reason: str


@dataclass(frozen=True)
class UnrankedDocument:
    id: int
    name: str
    reason: str


@dataclass(frozen=True)
class BatchProposal:
    policy: str
    size: int
    candidates: int
    """Documents that could go in the batch: imported, in no iteration yet."""
    gold_documents: int
    seed: int | None
    """The random draw's seed, so the same proposal can be asked for again; None otherwise."""
    documents: list[ProposedDocument]
    unranked: list[UnrankedDocument] = field(default_factory=list)


def batch_candidates(
    *, project: Project, document_ids: Sequence[int] | None = None
) -> list[Document]:
    """Documents a batch may take, by id (or only those of `document_ids`, in that order)."""
    query = Document.objects.filter(
        project=project, status__in=READY_FOR_BATCH, iteration__isnull=True
    ).only("id", "name", "project_id")
    if document_ids is None:
        return list(query.order_by("pk"))
    found = {document.pk: document for document in query.filter(pk__in=document_ids)}
    return [found[pk] for pk in document_ids if pk in found]


def batch_proposal(
    *,
    project: Project,
    policy: str,
    size: int,
    seed: int | None = None,
    document_ids: Sequence[int] | None = None,
) -> BatchProposal:
    """Up to `size` of the project's candidates (or of `document_ids` among them), chosen by
    `policy`, in the order chosen, with the reason for each."""
    candidates = batch_candidates(project=project, document_ids=document_ids)
    gold = gold_documents(project_id=project.pk)
    unranked: list[UnrankedDocument] = []
    used_seed = None
    if policy == SelectionPolicy.UNCERTAINTY:
        choices, ranked, unranked = _by_uncertainty(candidates, size)
    elif policy == SelectionPolicy.DIVERSITY:
        choices, ranked = _by_diversity(project, candidates, gold, size), candidates
    else:
        used_seed = secrets.randbelow(2**31) if seed is None else seed
        choices, ranked = random_choice(len(candidates), size, used_seed), candidates
    return BatchProposal(
        policy=str(policy),
        size=size,
        candidates=len(candidates),
        gold_documents=len(gold),
        seed=used_seed,
        documents=[
            ProposedDocument(
                id=ranked[choice.position].pk,
                name=ranked[choice.position].name,
                score=choice.score,
                reason=choice.reason,
            )
            for choice in choices
        ],
        unranked=unranked,
    )


def _by_uncertainty(
    candidates: list[Document], size: int
) -> tuple[list[Choice], list[Document], list[UnrankedDocument]]:
    """Ranked on the current pre-alignment's confidences; documents without one (or whose
    pre-alignment has no confidences, as the diagonal's) are returned unranked."""
    stored = current_pre_alignments(document_ids=[document.pk for document in candidates])
    ranked, confidences, unranked = [], [], []
    for document in candidates:
        pre_alignment = stored.get(document.pk)
        values = np.asarray(pre_alignment.confidences if pre_alignment else [], dtype=np.float64)
        if pre_alignment is None or not values.size or np.all(values == values[0]):
            unranked.append(
                UnrankedDocument(
                    id=document.pk,
                    name=document.name,
                    reason="no pre-alignment yet"
                    if pre_alignment is None
                    else "its pre-alignment's confidences say nothing (all equal)",
                )
            )
            continue
        ranked.append(document)
        confidences.append(values)
    return uncertainty_choice(confidences, size), ranked, unranked


def _by_diversity(
    project: Project, candidates: list[Document], gold: list[Document], size: int
) -> list[Choice]:
    vectors = _document_vectors(project, [document.pk for document in candidates + gold])

    def matrix(documents: list[Document]) -> np.ndarray:
        return np.array([vectors[document.pk] for document in documents]).reshape(
            len(documents), DIMENSIONS
        )

    return diversity_choice(matrix(candidates), matrix(gold), size)


def _document_vectors(project: Project, document_ids: list[int]) -> dict[int, np.ndarray]:
    """Each document's transcript as one lexical vector (workers.align.annotation.selection)."""
    sentences: dict[int, list[str]] = {pk: [] for pk in document_ids}
    for document_id, turn_sentences in (
        TranscriptTurn.objects.filter(document_id__in=document_ids)
        .order_by("document_id", "position")
        .values_list("document_id", "sentences")
    ):
        sentences[document_id].extend(turn_sentences)
    return {pk: document_vector(texts, project.language) for pk, texts in sentences.items()}
