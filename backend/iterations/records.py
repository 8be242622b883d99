"""Writing the accuracy records of an iteration that closes (inside the close's transaction)."""

from backend.alignments.models import Annotation, PreAlignment
from backend.curation.models import Gold
from backend.documents.models import Document, TranscriptTurn
from backend.iterations.accuracy import score_correction
from backend.iterations.models import AccuracyRecord, Iteration
from workers.align.document_model import UNALIGNED


def accuracy_record_write(
    *, iteration: Iteration, document: Document, gold: Gold
) -> AccuracyRecord:
    """Scores the pre-alignment the annotators were shown (the one their corrections are
    measured against, and which the editor's `changed` flags refer to) against the gold.
    Its time is what the gold cost: every counted submission's, plus the adjudication's."""
    submissions = list(
        Annotation.objects.filter(
            document=document, annotator_id__in=gold.annotators, submitted_at__isnull=False
        ).select_related("pre_alignment")
    )
    pre_alignment = _shown_pre_alignment(gold, submissions)
    pre_labels = list(pre_alignment.labels) if pre_alignment else [UNALIGNED] * document.turn_count
    turns = list(
        TranscriptTurn.objects.filter(document=document)
        .order_by("position")
        .values_list("key", "word_count")
    )
    scores = score_correction(
        pre_alignment=pre_labels,
        gold=gold.labels,
        word_counts=[count for _, count in turns],
        turn_keys=[key for key, _ in turns],
    )
    adjudication = gold.adjudication
    return AccuracyRecord.objects.create(
        iteration=iteration,
        document=document,
        gold_rule=gold.rule,
        annotator_id=gold.annotation.annotator_id if gold.annotation else _curator(gold),
        annotation=gold.annotation,
        pre_alignment=pre_alignment,
        pre_alignment_labels=pre_labels,
        gold_labels=list(gold.labels),
        turns=scores.turns,
        words=scores.words,
        unchanged_turns=scores.unchanged_turns,
        unchanged_words=scores.unchanged_words,
        human_turn_accuracy=scores.human_turn_accuracy,
        human_word_accuracy=scores.human_word_accuracy,
        segment_accuracy=scores.segment_accuracy,
        word_accuracy=scores.word_accuracy,
        windowdiff=scores.windowdiff,
        seconds_spent=sum(annotation.seconds_spent for annotation in submissions)
        + (adjudication.seconds_spent if adjudication else 0),
    )


def _shown_pre_alignment(gold: Gold, submissions: list[Annotation]) -> PreAlignment | None:
    if gold.annotation is not None:
        return gold.annotation.pre_alignment
    shown = [annotation for annotation in submissions if annotation.pre_alignment_id]
    return shown[0].pre_alignment if shown else None


def _curator(gold: Gold) -> int | None:
    return gold.adjudication.curator_id if gold.adjudication else None
