from django.db.models import QuerySet

from backend.core.errors import NotFound
from backend.documents.models import Document, ReportSegment, TranscriptTurn
from backend.vectors.models import WordVectors
from workers.align.scoring.vectors import VectorKind

TRAINABLE = [
    Document.Status.IMPORTED,
    Document.Status.PRE_ALIGNED,
    Document.Status.IN_ANNOTATION,
    Document.Status.SUBMITTED,
]


def project_sentences(*, project_id: int) -> tuple[list[str], int]:
    """Every sentence of the project's imported documents and how many documents they come
    from, in a fixed order (documents by id; each document's turns, then its segments, as the
    engine's `corpus_vectors` reads a meeting), so the same texts give the same training key."""
    document_ids = list(
        Document.objects.filter(project_id=project_id, status__in=TRAINABLE)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    sentences: list[str] = []
    for document_id in document_ids:
        for rows in (
            TranscriptTurn.objects.filter(document_id=document_id).order_by("position"),
            ReportSegment.objects.filter(document_id=document_id).order_by("position"),
        ):
            for unit_sentences in rows.values_list("sentences", flat=True):
                sentences.extend(unit_sentences)
    return sentences, len(document_ids)


def word_vectors_list(*, project_id: int) -> QuerySet[WordVectors]:
    return WordVectors.objects.filter(project_id=project_id).defer("data")


def word_vectors_get(*, project_id: int, vectors_id: int) -> WordVectors:
    vectors = word_vectors_list(project_id=project_id).filter(pk=vectors_id).first()
    if vectors is None:
        raise NotFound(f"Project {project_id} has no word vectors {vectors_id}.")
    return vectors


ENGINE_KIND_OF_ORIGIN: dict[str, VectorKind] = {
    WordVectors.Origin.TRAINED: "word2vec",
    WordVectors.Origin.LEXICAL: "lexical",
}
"""The engine's kind of vectors that a stored set of each origin is made as. Uploaded vectors
and the server's file are whatever their makers trained, so no shipped calibration (fitted on
the evidence of one kind) reads them."""


def engine_vectors_kind(vectors: WordVectors) -> VectorKind | None:
    return ENGINE_KIND_OF_ORIGIN.get(vectors.origin)
