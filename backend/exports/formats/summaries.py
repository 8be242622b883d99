"""`summaries.jsonl`: per document, its report units (a talk project's paper sentences)
with their importance, the ranking, and TalkSumm's extractive summaries.

A unit's importance is the engine's (`workers.align.talks.importance.importance`): the spoken words
aligned to it, read here from whole turns (every word of a turn goes to the turn's segment),
since turns are what annotators correct. It comes from the document's gold when it has gold,
else from its current pre-alignment; a document with neither is listed with no scores, so
the export says which documents still need aligning. Units of an excluded section keep their
score but get no rank and enter no summary, whatever turns were put there.
"""

from collections.abc import Iterator
from typing import Any

import numpy as np

from backend.agreement.aligned import DocumentHead, head_batches
from backend.alignments.models import PreAlignment
from backend.alignments.selectors import current_pre_alignments
from backend.curation.models import Gold
from backend.curation.selectors import gold_by_document
from backend.documents.models import ReportSegment, TranscriptTurn
from backend.projects.models import Project
from backend.projects.talks import section_is_excluded
from workers.align.pairs.options import ExportOptions
from workers.align.pairs.split import Split
from workers.align.talks.importance import SummaryLengths, importance, ranking, summaries


def summary_records(
    *,
    project: Project,
    lengths: SummaryLengths,
    options: ExportOptions | None = None,
    split: Split | None = None,
) -> Iterator[dict[str, Any]]:
    """`options`, when given, add each document's split (that of its pairs), and `split`
    keeps that split's documents only."""
    for heads in head_batches(project_id=project.pk):
        ids = [head.id for head in heads]
        golds = gold_by_document(document_ids=ids)
        automatic = current_pre_alignments(document_ids=[pk for pk in ids if pk not in golds])
        for head in heads:
            labels = _labels(golds.get(head.id), automatic.get(head.id))
            if options is None:
                yield _document_summary(project, head, lengths, labels)
                continue
            head_split = options.split_of(head.meeting)
            if split is None or head_split == split:
                yield {**_document_summary(project, head, lengths, labels), "split": head_split}


def _document_summary(
    project: Project,
    head: DocumentHead,
    lengths: SummaryLengths,
    found: tuple[np.ndarray | None, str | None],
) -> dict[str, Any]:
    labels, labels_from = found
    segments = list(
        ReportSegment.objects.filter(document_id=head.id)
        .order_by("position")
        .values("position", "key", "section", "text", "word_count")
    )
    turn_words = list(
        TranscriptTurn.objects.filter(document_id=head.id)
        .order_by("position")
        .values_list("word_count", flat=True)
    )
    words = [segment["word_count"] for segment in segments]
    excluded = [section_is_excluded(project, segment["section"]) for segment in segments]
    if labels is None:
        scores = np.zeros(len(segments), dtype=np.int64)
    else:
        scores = importance(np.repeat(labels, turn_words), len(segments))
    # A turn an annotator put in an excluded section (Acknowledgments, References) keeps its
    # score, so the export shows it, but the section is no candidate for a summary.
    candidates = np.where(excluded, 0, scores)
    ranked = ranking(candidates)
    rank_of = {position: rank for rank, position in enumerate(ranked, start=1)}
    budgets = lengths.budgets(sum(words))
    return {
        "document_id": head.id,
        "document_name": head.name,
        "meeting": head.meeting,
        "scores_from": labels_from,
        "spoken_words": int(sum(turn_words)),
        "units": [
            {
                "position": segment["position"],
                "key": segment["key"],
                "section": segment["section"],
                "excluded": excluded[segment["position"]],
                "text": segment["text"],
                "words": segment["word_count"],
                "score": int(scores[segment["position"]]),
                "rank": rank_of.get(segment["position"]),
            }
            for segment in segments
        ],
        "ranking": ranked,
        "summaries": {
            name: {
                "budget": budgets[name],
                "words": sum(words[position] for position in chosen),
                "positions": chosen,
                "text": " ".join(segments[position]["text"] for position in chosen),
            }
            for name, chosen in summaries(candidates, words, lengths).items()
        },
    }


def _labels(
    gold: Gold | None, automatic: PreAlignment | None
) -> tuple[np.ndarray | None, str | None]:
    if gold is not None:
        return np.asarray(gold.labels, dtype=np.int64), "gold"
    if automatic is not None:
        return np.asarray(automatic.labels, dtype=np.int64), "automatic"
    return None, None
