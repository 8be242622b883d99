"""Writing the accuracy records of an iteration that closes (inside the close's transaction)."""

from backend.alignments.models import Annotation
from backend.alignments.selectors import latest_submissions
from backend.documents.models import Document, TranscriptTurn
from backend.iterations.accuracy import score_correction
from backend.iterations.models import AccuracyRecord, Iteration
from workers.align.model import UNALIGNED


def gold_annotation(document: Document) -> Annotation | None:
    return (
        latest_submissions(document_id=document.pk)
        .select_related("pre_alignment", "annotator")
        .first()
    )


def accuracy_record_write(
    *, iteration: Iteration, document: Document, annotation: Annotation
) -> AccuracyRecord:
    """Scores the pre-alignment the annotator was shown: the one their corrections are
    measured against, and which the editor's `changed` flags refer to."""
    pre_alignment = annotation.pre_alignment
    pre_labels = list(pre_alignment.labels) if pre_alignment else [UNALIGNED] * document.turn_count
    turns = list(
        TranscriptTurn.objects.filter(document=document)
        .order_by("position")
        .values_list("key", "word_count")
    )
    scores = score_correction(
        pre_alignment=pre_labels,
        gold=annotation.assignments,
        word_counts=[count for _, count in turns],
        turn_keys=[key for key, _ in turns],
    )
    return AccuracyRecord.objects.create(
        iteration=iteration,
        document=document,
        annotator=annotation.annotator,
        annotation=annotation,
        pre_alignment=pre_alignment,
        pre_alignment_labels=pre_labels,
        gold_labels=list(annotation.assignments),
        turns=scores.turns,
        words=scores.words,
        unchanged_turns=scores.unchanged_turns,
        unchanged_words=scores.unchanged_words,
        human_turn_accuracy=scores.human_turn_accuracy,
        human_word_accuracy=scores.human_word_accuracy,
        segment_accuracy=scores.segment_accuracy,
        word_accuracy=scores.word_accuracy,
        windowdiff=scores.windowdiff,
        seconds_spent=annotation.seconds_spent,
    )
