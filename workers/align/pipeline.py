"""Align one meeting: score sentence pairs, find the path, give each turn a segment.

The split between `meeting_scores` (expensive, depends only on scoring settings) and
`align_scores` (cheap, everything else) is what lets tuning score a meeting once and try
hundreds of path settings on the cached matrix.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from gensim.models import KeyedVectors

from workers.align.assign import NOT_VISITED, assign_segments, fill_unvisited, path_weights
from workers.align.confidence import abstain, confidence, path_share, turn_support
from workers.align.diagonal import diagonal_path
from workers.align.dp import best_path
from workers.align.gapped_dp import best_gapped_path, vote_segments
from workers.align.layout import SentenceLayout, sentence_layout
from workers.align.model import Meeting
from workers.align.params import AlignmentParams
from workers.align.scoring.normalise import normalise, signed_power
from workers.align.scoring.similarity import ScoringParams, similarity_matrix
from workers.align.scoring.vectors import TrainingSettings, train_vectors
from workers.align.turn_dp import SegmentView, best_turn_labels


@dataclass(frozen=True)
class AlignmentResult:
    """Per transcript turn: report segment index (-1 = unaligned) and confidence in [0, 1]."""

    labels: np.ndarray
    confidence: np.ndarray


def corpus_vectors(meetings: Sequence[Meeting], settings: TrainingSettings) -> KeyedVectors:
    """Vectors trained on both sides of all given meetings (reads no labels)."""
    sentences = [
        sentence
        for meeting in meetings
        for part in (meeting.transcript.turns, meeting.report.segments)
        for unit in part
        for sentence in unit.sentences
    ]
    return train_vectors(sentences, settings)


def meeting_scores(
    layout: SentenceLayout, scoring: ScoringParams, vectors: KeyedVectors | None
) -> np.ndarray:
    return similarity_matrix(layout.transcript_sentences, layout.report_sentences, scoring, vectors)


@dataclass(frozen=True)
class PathOutcome:
    """What the path says about each turn before abstention: cheap to reuse across
    abstention settings."""

    labels: np.ndarray
    support: np.ndarray
    share: np.ndarray


def path_outcome(
    scores: np.ndarray,
    layout: SentenceLayout,
    params: AlignmentParams,
    view: SegmentView | None = None,
) -> PathOutcome:
    """Path search and equation 6 for a raw (transcript sentences, report sentences) matrix.

    The paper's path follows normalised scores, the gapped and turn paths the raw ones;
    support (for abstention and confidence) is read on the raw ones, for the turn path net of
    its baseline. `view`, the scores seen per segment, lets tuning share that work between
    turn-path settings.
    """
    n_rows, n_cols = len(layout.transcript_sentences), len(layout.report_sentences)
    if scores.shape != (n_rows, n_cols):
        raise ValueError(f"scores {scores.shape} do not match the layout {(n_rows, n_cols)}")
    if params.aligner == "turns":
        return _turn_outcome(view or segment_view(scores, layout), layout, params)
    if params.aligner == "gapped":
        gapped = best_gapped_path(scores, params.gaps)
        labels, share = vote_segments(
            gapped, layout.turn_of_row, layout.segment_of_col, layout.n_turns
        )
        labels = fill_unvisited(labels)
        return PathOutcome(labels, turn_support(scores, layout, labels), share)
    if params.aligner == "diagonal":
        path = diagonal_path(n_rows, n_cols)
        weights = path_weights(path, "count")
    elif params.aligner == "dp":
        normalised = normalise(scores, params.scoring.normalisation)
        path = best_path(
            signed_power(normalised, params.power), params.transcript_decay, params.report_decay
        )
        weights = path_weights(path, params.path_weight)
    else:
        raise ValueError(f"unknown aligner {params.aligner!r}")
    assignment = assign_segments(
        path, weights, layout.turn_of_row, layout.segment_of_col, layout.n_turns
    )
    labels = fill_unvisited(assignment.labels)
    return PathOutcome(labels, turn_support(scores, layout, labels), path_share(assignment))


def segment_view(scores: np.ndarray, layout: SentenceLayout) -> SegmentView:
    return SegmentView(
        scores,
        layout.turn_of_row,
        layout.n_turns,
        layout.row_word_counts,
        layout.segment_of_col,
        layout.n_segments,
    )


def _turn_outcome(
    view: SegmentView, layout: SentenceLayout, params: AlignmentParams
) -> PathOutcome:
    """The turn path's labels; a turn's support is its word-weighted mean margin over the
    baseline in its segment (for an unaligned turn, in the best segment its neighbours allow)
    plus the offset, so that it reads on the same scale as `evidence_level`."""
    evidence = view.evidence(params.match_offset, params.baseline_quantile)
    labels = best_turn_labels(evidence, params.turn_costs)
    chosen = _allowed_best_segment(evidence, labels)
    words = view.turn_weights
    support = np.full(layout.n_turns, np.nan)
    rows = np.flatnonzero(view.turn_has_sentences & (chosen >= 0) & (words > 0))
    support[rows] = evidence[rows, chosen[rows]] / words[rows] + params.match_offset
    labels = fill_unvisited(np.where(view.turn_has_sentences, labels, NOT_VISITED))
    return PathOutcome(labels, support, np.ones(layout.n_turns))


def _allowed_best_segment(evidence: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """A turn's own segment, or for an unaligned turn the best one between the segments of
    the aligned turns around it (-1 when the report has no segment)."""
    n_turns, n_segments = evidence.shape
    if n_segments == 0:
        return np.full(n_turns, -1, dtype=np.int64)
    aligned = labels >= 0
    before = np.maximum.accumulate(np.where(aligned, labels, 0))
    after = np.minimum.accumulate(np.where(aligned, labels, n_segments - 1)[::-1])[::-1]
    chosen = labels.copy()
    for turn in np.flatnonzero(~aligned):
        low, high = before[turn], max(after[turn], before[turn])
        chosen[turn] = low + int(np.argmax(evidence[turn, low : high + 1]))
    return chosen


def decide(
    outcome: PathOutcome, layout: SentenceLayout, params: AlignmentParams
) -> AlignmentResult:
    """Abstention and confidence on top of a path outcome."""
    words = layout.turn_word_counts
    labels = abstain(outcome.labels, outcome.support, words, params.min_support, params.min_words)
    return AlignmentResult(
        labels=labels,
        confidence=confidence(labels, outcome.support, outcome.share, words, params.evidence_level),
    )


def align_scores(
    scores: np.ndarray, layout: SentenceLayout, params: AlignmentParams
) -> AlignmentResult:
    return decide(path_outcome(scores, layout, params), layout, params)


def align_meeting(
    meeting: Meeting, params: AlignmentParams, vectors: KeyedVectors | None = None
) -> AlignmentResult:
    """The Celery-facing entry point; `vectors` is required for embedding scoring."""
    layout = sentence_layout(meeting)
    if params.aligner == "diagonal":
        shape = (len(layout.transcript_sentences), len(layout.report_sentences))
        scores = np.zeros(shape, np.float32)
    else:
        scores = meeting_scores(layout, params.scoring, vectors)
    return align_scores(scores, layout, params)
