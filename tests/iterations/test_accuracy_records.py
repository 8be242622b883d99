"""Closing an iteration records, per document, how much of its pre-alignment the annotator
kept and how that pre-alignment scores against the gold, on a real public_meetings meeting
whose corrections are known: the corpus's own `initial` side corrected to its `final` side."""

import pytest

from backend.alignments.services.annotations import (
    AssignmentOperation,
    annotation_apply,
    annotation_submit,
)
from backend.core.errors import Conflict
from backend.curation.public_meetings import import_public_meeting
from backend.iterations.models import AccuracyRecord, IterationStatus
from backend.iterations.services import iteration_close
from tests.iterations.builders import annotating_iteration

SMALL_MEETING = "686239f069621dada25c3408f1867d66"
# initial -> final on its 33 turns: four turns move to another segment.
CORRECTIONS = {21: 1, 22: 2, 26: 5, 31: 11}


@pytest.fixture
def corrected(world):
    document = import_public_meeting(
        actor=world.lead,
        project=world.project,
        meeting_id=SMALL_MEETING,
        assignees=[world.annotator],
    )
    iteration = annotating_iteration(world.project, [document])
    annotation = annotation_apply(
        annotator=world.annotator,
        document=document,
        version=0,
        operations=[
            AssignmentOperation("assign", turn, turn, segment)
            for turn, segment in CORRECTIONS.items()
        ],
        seconds_spent=95,
    )
    return iteration, document, annotation


def test_closing_records_human_and_automatic_accuracy_of_the_corrected_meeting(world, corrected):
    iteration, document, annotation = corrected
    annotation_submit(annotator=world.annotator, document=document, version=annotation.version)

    iteration_close(actor=world.lead, iteration=iteration)

    record = AccuracyRecord.objects.get(iteration=iteration, document=document)
    assert (record.turns, record.unchanged_turns) == (33, 29)
    assert (record.words, record.unchanged_words) == (2708, 2532)
    assert record.human_turn_accuracy == pytest.approx(100 * 29 / 33)
    assert record.human_word_accuracy == pytest.approx(100 * 2532 / 2708)
    assert record.segment_accuracy == pytest.approx(100 * 29 / 33)
    assert record.word_accuracy == pytest.approx(100 * 2532 / 2708)
    assert record.windowdiff == pytest.approx(12.5)
    assert record.seconds_spent == 95
    assert record.annotator == world.annotator
    assert [record.gold_labels[turn] for turn in CORRECTIONS] == list(CORRECTIONS.values())
    assert record.pre_alignment_labels[21:23] == [0, 1]
    iteration.refresh_from_db()
    assert iteration.status == IterationStatus.CLOSING
    assert iteration.tuning_run.gold_document_ids == [document.pk]
    assert iteration.corpus_at_close["gold_documents"] == 1
    assert iteration.corpus_at_close["gold_pairs"] == 10  # segments 3 and 8 have no turn


def test_an_unsubmitted_document_refuses_the_close_and_nothing_is_written(world, corrected):
    iteration, document, _ = corrected

    with pytest.raises(Conflict) as refused:
        iteration_close(actor=world.lead, iteration=iteration)

    assert document.name in refused.value.message
    assert refused.value.extra["unsubmitted"] == [document.pk]
    assert not AccuracyRecord.objects.exists()
    iteration.refresh_from_db()
    assert iteration.closed_at is None
    assert iteration.status == IterationStatus.ANNOTATING
