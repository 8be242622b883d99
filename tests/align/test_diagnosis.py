"""`diagnose`: each degenerate result found on synthetic arrays, none on a healthy one, none
on a real meeting aligned as measured (shipped defaults, corpus vectors), and the cold-start
collapse of issue 34 found on a real meeting."""

from __future__ import annotations

import numpy as np
import pytest

from workers.align.corpus import load_public_meetings, meeting_ids
from workers.align.diagnosis import (
    ALL_UNALIGNED,
    BELOW_DIAGONAL,
    CONSTANT_CONFIDENCE,
    CONSTANT_CONFIDENCE_MIN_TURNS,
    ONE_SEGMENT,
    ONE_SEGMENT_SHARE,
    ONE_SEGMENT_SHARE_FEW,
    diagnose,
    diagnose_meeting,
    diagonal_labels,
)
from workers.align.folds import shipped_defaults
from workers.align.pipeline import align_meeting, corpus_vectors

pytest.importorskip("public_meetings")

TURNS, SEGMENTS = 100, 25
WORDS = np.full(TURNS, 10)


def healthy() -> tuple[np.ndarray, np.ndarray]:
    """Turns in report order, four per segment, with varied confidences mostly high."""
    labels = np.arange(TURNS) * SEGMENTS // TURNS
    confidence = np.random.default_rng(0).uniform(0.3, 0.95, TURNS)
    return labels, confidence


def codes(labels, confidence, words=WORDS, segments=SEGMENTS) -> list[str]:
    return [finding.code for finding in diagnose(labels, confidence, words, segments)]


def test_a_healthy_alignment_has_no_finding() -> None:
    assert codes(*healthy()) == []


def test_most_words_on_one_segment_is_found_and_said() -> None:
    labels, confidence = healthy()
    labels[: int(TURNS * ONE_SEGMENT_SHARE) + 1] = 3
    [finding] = diagnose(labels, confidence, WORDS, SEGMENTS)
    assert finding.code == ONE_SEGMENT
    assert finding.message.startswith(f"{TURNS // 2 + 1} of {TURNS} turns (51% ")
    assert "segment 4 of the report's 25" in finding.message
    assert "word vectors" in finding.cause
    assert "language" in finding.do


def test_one_segment_holding_exactly_the_threshold_is_not_a_collapse() -> None:
    labels, confidence = healthy()
    labels[: TURNS // 2] = 3
    labels[TURNS // 2 :] = np.arange(TURNS // 2) % SEGMENTS
    labels[TURNS // 2 :][labels[TURNS // 2 :] == 3] = 4
    assert ONE_SEGMENT not in codes(labels, confidence)


def test_a_short_report_needs_a_larger_share_on_one_segment() -> None:
    """686239f0's gold puts 72 % of its words on one of 12 segments: not a collapse."""
    labels = np.concatenate([np.zeros(72, np.int64), np.arange(28) % 11 + 1])
    confidence = np.random.default_rng(1).uniform(0.3, 0.95, TURNS)
    assert ONE_SEGMENT not in codes(labels, confidence, segments=12)
    labels[: int(TURNS * ONE_SEGMENT_SHARE_FEW) + 1] = 0
    assert ONE_SEGMENT in codes(labels, confidence, segments=12)
    assert ONE_SEGMENT not in codes(np.zeros(TURNS, np.int64), confidence, segments=3)


def test_every_turn_unaligned_is_found() -> None:
    _, confidence = healthy()
    assert codes(np.full(TURNS, -1), confidence) == [ALL_UNALIGNED]
    alike = np.full(TURNS, 0.3)
    assert codes(np.full(TURNS, -1), alike) == [ALL_UNALIGNED], "said once, by its cause"
    nearly = np.full(TURNS, -1)
    nearly[:5] = [0, 1, 2, 3, 4]
    assert codes(nearly, confidence) == [ALL_UNALIGNED]


def test_a_report_that_leaves_a_fifth_of_the_words_out_is_not_all_unaligned() -> None:
    labels, confidence = healthy()
    labels[::5] = -1
    assert codes(labels, confidence) == []


def test_nearly_constant_confidences_are_found_on_a_long_document_only() -> None:
    labels, _ = healthy()
    constant = np.random.default_rng(2).uniform(0.961, 1.0, TURNS)
    [finding] = diagnose(labels, constant, WORDS, SEGMENTS)
    assert finding.code == CONSTANT_CONFIDENCE
    assert "between 0.96" in finding.message
    short = CONSTANT_CONFIDENCE_MIN_TURNS - 1
    assert codes(labels[:short], constant[:short], WORDS[:short]) == []


def test_a_result_its_own_confidences_put_below_the_diagonal_is_found() -> None:
    diagonal = diagonal_labels(WORDS, SEGMENTS)
    shifted = (diagonal + 7) % SEGMENTS
    doubtful = np.random.default_rng(3).uniform(0.1, 0.45, TURNS)
    [finding] = diagnose(shifted, doubtful, WORDS, SEGMENTS)
    assert finding.code == BELOW_DIAGONAL
    assert "could get up to" in finding.message
    sure = np.random.default_rng(3).uniform(0.55, 0.95, TURNS)
    assert codes(shifted, sure) == [], "departures the aligner trusts are its right"
    assert codes(diagonal, doubtful) == [], "on the diagonal it cannot be below it"


def test_the_diagonal_follows_the_segments_lengths() -> None:
    words = np.full(10, 10)
    assert diagonal_labels(words, 2).tolist() == [0] * 5 + [1] * 5
    assert diagonal_labels(words, 2, [80, 20]).tolist() == [0] * 8 + [1] * 2


def test_confidences_are_optional_and_lengths_must_match() -> None:
    assert codes(np.full(TURNS, -1), []) == [ALL_UNALIGNED]
    with pytest.raises(ValueError, match="3 confidences for 100 turns"):
        diagnose(np.zeros(TURNS, np.int64), [0.5] * 3, WORDS, SEGMENTS)
    with pytest.raises(ValueError, match="100 word counts for 4 turns"):
        diagnose([0, 1, 2, 3], [], WORDS, SEGMENTS)
    assert diagnose([], [], [], SEGMENTS) == []


def _aligned(prefix: str, own_vectors: bool):
    meetings = load_public_meetings()
    [meeting] = [m for m in meetings if m.id.startswith(prefix)]
    params = shipped_defaults(meeting.id, meeting_ids())
    vectors = corpus_vectors([meeting] if own_vectors else meetings, params.vectors)
    return meeting, align_meeting(meeting, params, vectors)


def test_a_real_meeting_aligned_as_measured_has_no_finding() -> None:
    meeting, result = _aligned("0b9ec6f0", own_vectors=False)
    assert diagnose_meeting(meeting, result.labels, result.confidence) == []


def test_a_cold_start_collapse_on_a_real_meeting_is_found() -> None:
    """Issue 34's cold start: 5860bd59 with vectors trained on its own texts only puts nearly
    every turn on one segment (28.6 % right, under its diagonal's 50 %)."""
    meeting, result = _aligned("5860bd59", own_vectors=True)
    findings = diagnose_meeting(meeting, result.labels, result.confidence)
    assert [finding.code for finding in findings] == [ONE_SEGMENT]
    assert f"of {len(meeting.transcript.turns)} turns" in findings[0].message
