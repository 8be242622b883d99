"""Words and sentences per transcript turn and report segment under an export's cleaning,
stored once per document and cleaning (`UnitCounts`): what the export preview sums instead
of cleaning texts. Storing a document's texts resets them (`unit_counts_reset`)."""

from collections.abc import Sequence
from dataclasses import dataclass, fields

import numpy as np

from backend.documents.models import ReportSegment, TranscriptTurn
from backend.exports.models import UnitCounts
from workers.align.pairs.cleaning import Cleaning, clean


@dataclass(frozen=True)
class DocumentCounts:
    turns: np.ndarray
    """(turns, 2) int64: words and sentences of each turn, cleaned."""
    segments: np.ndarray
    """(segments, 2) int64: words and sentences of each report segment, cleaned."""


def cleaning_key(cleaning: Cleaning) -> str:
    return ",".join(option.name for option in fields(cleaning) if getattr(cleaning, option.name))


def unit_counts(*, document_ids: Sequence[int], cleaning: Cleaning) -> dict[int, DocumentCounts]:
    """The documents' counts, computing and storing those not stored yet (a document's first
    preview under a cleaning cleans its texts once)."""
    key = cleaning_key(cleaning)
    stored = {
        document_id: (turns, segments)
        for document_id, turns, segments in UnitCounts.objects.filter(
            document_id__in=document_ids, cleaning=key
        ).values_list("document_id", "turns", "segments")
    }
    missing = [pk for pk in document_ids if pk not in stored]
    if missing:
        computed = _counted(missing, cleaning)
        UnitCounts.objects.bulk_create(
            [
                UnitCounts(document_id=pk, cleaning=key, turns=turns, segments=segments)
                for pk, (turns, segments) in computed.items()
            ],
            ignore_conflicts=True,
        )
        stored.update(computed)
    return {
        pk: DocumentCounts(_from_bytes(turns), _from_bytes(segments))
        for pk, (turns, segments) in stored.items()
    }


def unit_counts_reset(*, document_id: int) -> None:
    """Counts for a document's texts as just stored: what was stored for earlier texts goes,
    and the counts the export page previews with (no cleaning option) are stored now, so a
    project's first preview sums instead of cleaning every text."""
    UnitCounts.objects.filter(document_id=document_id).delete()
    unit_counts(document_ids=[document_id], cleaning=Cleaning())


STORED = np.dtype("<i4")


def _from_bytes(stored: bytes | memoryview) -> np.ndarray:
    return np.frombuffer(stored, dtype=STORED).reshape(-1, 2).astype(np.int64)


def _counted(document_ids: Sequence[int], cleaning: Cleaning) -> dict[int, tuple[bytes, bytes]]:
    counted: dict[int, tuple[list[int], list[int]]] = {pk: ([], []) for pk in document_ids}
    for side, model in ((0, TranscriptTurn), (1, ReportSegment)):
        rows = (
            model.objects.filter(document_id__in=document_ids)
            .order_by("document_id", "position")
            .values_list("document_id", "text")
        )
        for document_id, text in rows.iterator(chunk_size=2000):
            cleaned = clean(text, cleaning)
            counted[document_id][side].extend((cleaned.words, cleaned.sentences))
    return {
        pk: (_as_bytes(turns), _as_bytes(segments)) for pk, (turns, segments) in counted.items()
    }


def _as_bytes(flat: list[int]) -> bytes:
    return np.asarray(flat, dtype=STORED).tobytes()
