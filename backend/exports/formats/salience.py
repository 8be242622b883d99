"""`salience.jsonl`: one record per transcript unit (a podcast project's time window) with
its automatic salience (ROUGE-2 recall against the best description sentence, and the label
at the project's threshold), whether it is a candidate unit, and its gold label where the
document has gold (docs/podcasts.md)."""

from collections.abc import Iterator
from typing import Any

from backend.projects.models import Project
from backend.salience.selectors import DocumentSalience, document_salience
from workers.align.pairs.options import ExportOptions
from workers.align.pairs.split import Split


def salience_records(
    *,
    project: Project,
    candidates_only: bool = False,
    options: ExportOptions | None = None,
    split: Split | None = None,
) -> Iterator[dict[str, Any]]:
    """`options`, when given, add each unit's split (its document's, as the pairs'), and
    `split` keeps that split's units only."""
    for document in document_salience(project=project):
        document_split = None if options is None else options.split_of(document.head.meeting)
        if split is not None and document_split != split:
            continue
        for record in _unit_records(document, candidates_only):
            yield record if options is None else {**record, "split": document_split}


def _unit_records(document: DocumentSalience, candidates_only: bool) -> Iterator[dict[str, Any]]:
    head = document.head
    for unit in document.units:
        if candidates_only and not unit.automatic.candidate:
            continue
        yield {
            "document_id": head.id,
            "document_name": head.name,
            "meeting": head.meeting,
            "position": unit.position,
            "key": unit.key,
            "start": unit.start,
            "end": unit.end,
            "text": unit.text,
            "score": round(unit.automatic.score, 6),
            "best_sentence": unit.best_sentence,
            "automatic_label": unit.automatic.salient,
            "candidate": unit.automatic.candidate,
            "gold_label": unit.gold,
        }
