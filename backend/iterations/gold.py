"""Which documents are gold, and the corpus counts leads follow as the loop goes on.

A document is gold once the iteration it was corrected in has closed: closing is when the
lead says the corrections are final, and what tuning then learns from.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import QuerySet

from backend.alignments.models import PreAlignment
from backend.alignments.pair_confidences import stored_pair_confidences
from backend.alignments.selectors import current_pre_alignment_ids
from backend.core.ids import batches
from backend.documents.models import Document
from backend.iterations.models import AccuracyRecord
from backend.projects.defaults import DEFAULT_TRUSTED_CONFIDENCE
from backend.projects.models import Project
from workers.align.document_model import UNALIGNED
from workers.align.pairs.shape import pairs_reaching


@dataclass(frozen=True)
class CorpusCounts:
    gold_documents: int
    gold_pairs: int
    automatic_documents: int
    trusted_pairs: int

    def as_dict(self) -> dict[str, int]:
        return {
            "gold_documents": self.gold_documents,
            "gold_pairs": self.gold_pairs,
            "automatic_documents": self.automatic_documents,
            "trusted_pairs": self.trusted_pairs,
        }


def gold_records(*, project_id: int) -> QuerySet[AccuracyRecord]:
    """One record per gold document: the one of the latest closed iteration it was in."""
    return (
        AccuracyRecord.objects.filter(
            iteration__project_id=project_id, iteration__closed_at__isnull=False
        )
        .order_by("document_id", "-iteration__number")
        .select_related("document", "iteration")
    )


def gold_documents(*, project_id: int) -> list[Document]:
    seen: dict[int, Document] = {}
    for record in gold_records(project_id=project_id):
        seen.setdefault(record.document_id, record.document)
    return list(seen.values())


def corpus_counts(*, project: Project, trusted_confidence: float | None = None) -> CorpusCounts:
    """Gold pairs are report segments that gold assigns at least one turn; trusted pairs are
    the same among the other documents' current pre-alignments, when confident enough: what
    an export with that `min_confidence` keeps of them before its length filters."""
    threshold = (
        trusted_confidence
        if trusted_confidence is not None
        else float(project.settings.get("trusted_confidence", DEFAULT_TRUSTED_CONFIDENCE))
    )
    gold_labels: dict[int, list[int]] = {}
    for record in gold_records(project_id=project.pk):
        gold_labels.setdefault(record.document_id, record.gold_labels)
    automatic_documents, trusted = 0, 0
    documents = (
        Document.objects.filter(project=project)
        .exclude(status__in=[Document.Status.IMPORTING, Document.Status.IMPORT_FAILED])
        .values("pk")
    )
    chosen = [
        pk
        for document_id, pk in current_pre_alignment_ids(document_ids=documents).items()
        if document_id not in gold_labels
    ]
    for batch in batches(chosen):
        stored_rows = PreAlignment.objects.filter(pk__in=batch).values_list(
            "pair_confidences", flat=True
        )
        for stored in stored_rows:
            if stored is None:
                continue  # no confidences: its pairs are not automatic ones
            automatic_documents += 1
            trusted += pairs_reaching(stored_pair_confidences(stored), threshold)
    return CorpusCounts(
        gold_documents=len(gold_labels),
        gold_pairs=sum(aligned_segments(labels) for labels in gold_labels.values()),
        automatic_documents=automatic_documents,
        trusted_pairs=trusted,
    )


def aligned_segments(labels: Sequence[int]) -> int:
    return len({label for label in labels if label != UNALIGNED})
