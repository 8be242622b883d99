"""Align one meeting: score sentence pairs, find the path, give each turn a segment.

The split between `meeting_scorer` (expensive, depends only on scoring settings) and
`align_scores` (cheap, everything else) is what lets tuning score a meeting once and try
hundreds of path settings on it. The turn path (the shipped one) reads the similarities a
block of transcript sentences at a time and never holds the whole matrix unless it fits one
block (`blocks.Blocking`); the sentence-level paths (gapped, dp, diagonal) walk every sentence
pair and read the whole matrix.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from gensim.models import KeyedVectors

from workers.align.baselines.diagonal import DiagonalSettings, diagonal_path
from workers.align.confidence import abstain, confidence, path_share, turn_support
from workers.align.document_model import Meeting
from workers.align.layout import SentenceLayout, sentence_layout
from workers.align.learning.turn_decision import (
    EVIDENCE_FLOOR,
    SECOND_OPINIONS,
    LearnedDecision,
    TurnEvidence,
    fit_decision,
    turn_features,
)
from workers.align.params import AlignmentParams
from workers.align.paths.assign import NOT_VISITED, assign_segments, fill_unvisited, path_weights
from workers.align.paths.blocks import DEFAULT_BLOCKING, Blocking, ScoreRows
from workers.align.paths.dp import best_path
from workers.align.paths.gapped_dp import GapSettings, best_gapped_path, vote_segments
from workers.align.paths.turn_dp import SegmentView, TurnSettings, best_turn_labels
from workers.align.paths.turn_margins import state_margins
from workers.align.scoring.normalise import normalise, signed_power
from workers.align.scoring.similarity import ScoringParams, SentenceScorer, sentence_scorer
from workers.align.scoring.vectors import EpochCallback, TrainingSettings, text_vectors
from workers.align.talks.hmm import HmmSettings
from workers.align.talks.hmm_alignment import TalkDecoding, decode_talk, spoken_words, turn_vote


@dataclass(frozen=True)
class AlignmentResult:
    """Per transcript turn: report segment index (-1 = unaligned) and confidence in [0, 1]."""

    labels: np.ndarray
    confidence: np.ndarray


def corpus_vectors(
    meetings: Sequence[Meeting],
    settings: TrainingSettings,
    on_epoch: EpochCallback | None = None,
) -> KeyedVectors:
    """Vectors for both sides of all given meetings, trained on them or lexical (reads no
    labels); lexical vectors read the first meeting's language."""
    sentences = [
        sentence
        for meeting in meetings
        for part in (meeting.transcript.turns, meeting.report.segments)
        for unit in part
        for sentence in unit.sentences
    ]
    return text_vectors(sentences, settings, meetings[0].language if meetings else None, on_epoch)


def meeting_scorer(
    layout: SentenceLayout, scoring: ScoringParams, vectors: KeyedVectors | None
) -> SentenceScorer:
    return sentence_scorer(layout.transcript_sentences, layout.report_sentences, scoring, vectors)


def whole_matrix(
    scores: ScoreRows | np.ndarray, blocking: Blocking = DEFAULT_BLOCKING
) -> np.ndarray:
    """The (transcript sentences, report sentences) matrix in memory, for the paths that walk
    every pair: filled a block of rows at a time, so the scorer's own working arrays (ROUGE's
    float64 overlaps, the window reductions) are a block's, not the matrix's."""
    if isinstance(scores, np.ndarray):
        return scores
    matrix = np.empty(scores.shape, dtype=np.float32)
    for start, stop in blocking.row_blocks(*scores.shape):
        matrix[start:stop] = scores.rows(start, stop)
    return matrix


@dataclass(frozen=True)
class PathOutcome:
    """What the path says about each turn before abstention: cheap to reuse across
    abstention settings."""

    labels: np.ndarray
    support: np.ndarray
    share: np.ndarray


def path_outcome(
    scores: ScoreRows | np.ndarray,
    layout: SentenceLayout,
    params: AlignmentParams,
    view: SegmentView | None = None,
    blocking: Blocking = DEFAULT_BLOCKING,
) -> PathOutcome:
    """Path search and equation 6 for the raw (transcript sentences, report sentences)
    similarities, a matrix or a scorer of its rows.

    The paper's path follows normalised scores, the gapped and turn paths the raw ones;
    support (for abstention and confidence) is read on the raw ones, for the turn path net of
    its baseline. `view`, the scores seen per segment, lets tuning share that work between
    turn-path settings; without it the turn path reads `scores` in blocks of `blocking`.
    """
    if isinstance(params.path, HmmSettings):
        raise ValueError("the hmm aligner reads words, not sentence scores: see hmm_outcome")
    n_rows, n_cols = len(layout.transcript_sentences), len(layout.report_sentences)
    if scores.shape != (n_rows, n_cols):
        raise ValueError(f"scores {scores.shape} do not match the layout {(n_rows, n_cols)}")
    settings = params.path
    if isinstance(settings, TurnSettings):
        if view is None:
            view = segment_view(scores, layout, turn_quantiles([settings]), blocking)
        return _turn_outcome(view, layout, settings)
    matrix = whole_matrix(scores, blocking)
    if isinstance(settings, GapSettings):
        gapped = best_gapped_path(matrix, settings)
        labels, share = vote_segments(
            gapped, layout.turn_of_row, layout.segment_of_col, layout.n_turns
        )
        labels = fill_unvisited(labels)
        return PathOutcome(labels, turn_support(matrix, layout, labels), share)
    if isinstance(settings, DiagonalSettings):
        path = diagonal_path(n_rows, n_cols)
        weights = path_weights(path, "count")
    else:
        normalised = normalise(matrix, settings.normalisation)
        path = best_path(
            signed_power(normalised, settings.power),
            settings.transcript_decay,
            settings.report_decay,
        )
        weights = path_weights(path, settings.path_weight)
    assignment = assign_segments(
        path, weights, layout.turn_of_row, layout.segment_of_col, layout.n_turns
    )
    labels = fill_unvisited(assignment.labels)
    return PathOutcome(labels, turn_support(matrix, layout, labels), path_share(assignment))


def talk_decoding(
    meeting: Meeting, params: AlignmentParams, vectors: KeyedVectors | None
) -> TalkDecoding:
    """TalkSumm's HMM with the report's sentences as states, all of them possible first (a
    meeting has no Introduction); word vectors are read only for embedding scoring, as the
    other aligners read them, and otherwise only identical words are similar. `min_share`
    does not change it: tuning decodes once for all its values."""
    settings = params.path
    if not isinstance(settings, HmmSettings):
        raise ValueError(f"the hmm path needs hmm settings, got the {params.aligner} aligner's")
    if params.scoring.method == "embedding" and vectors is None:
        raise ValueError("the embedding method needs word vectors")
    state_sentences = [s for segment in meeting.report.segments for s in segment.sentences]
    return decode_talk(
        spoken_words([turn.sentences for turn in meeting.transcript.turns]),
        spoken_words([[sentence] for sentence in state_sentences]),
        np.ones(len(state_sentences), dtype=bool),
        vectors if params.scoring.method == "embedding" else None,
        settings,
        params.scoring.centre,
    )


def hmm_outcome(
    meeting: Meeting,
    params: AlignmentParams,
    vectors: KeyedVectors | None,
    decoding: TalkDecoding | None = None,
) -> PathOutcome:
    """Each turn's segment by its words' vote; `decoding`, when given, is `talk_decoding` of
    the same meeting and settings (but `min_share`)."""
    if decoding is None:
        decoding = talk_decoding(meeting, params, vectors)
    settings = params.path
    assert isinstance(settings, HmmSettings)
    segments = meeting.report.segments
    segment_of_state = np.repeat(np.arange(len(segments)), [len(s.sentences) for s in segments])
    vote = turn_vote(
        decoding, segment_of_state, len(meeting.transcript.turns), len(segments), settings.min_share
    )
    return PathOutcome(vote.labels, vote.support, vote.share)


def turn_quantiles(settings: Iterable[object]) -> tuple[float, ...]:
    """The baselines the given turn-path settings read, for a view to compute in one pass."""
    return tuple(
        dict.fromkeys(
            path.baseline_quantile
            for path in settings
            if isinstance(path, TurnSettings) and path.baseline_quantile is not None
        )
    )


def segment_view(
    scores: ScoreRows | np.ndarray,
    layout: SentenceLayout,
    quantiles: tuple[float, ...] = (),
    blocking: Blocking = DEFAULT_BLOCKING,
) -> SegmentView:
    return SegmentView(
        scores,
        layout.turn_of_row,
        layout.n_turns,
        layout.row_word_counts,
        layout.segment_of_col,
        layout.n_segments,
        quantiles,
        blocking,
    )


def _turn_outcome(view: SegmentView, layout: SentenceLayout, settings: TurnSettings) -> PathOutcome:
    """The turn path's labels; a turn's support is its word-weighted mean margin over the
    baseline in its segment (for an unaligned turn, in the best segment its neighbours allow)
    plus the offset, so that it reads on the same scale as `evidence_level`."""
    charge = view.charge(settings.match_offset, settings.baseline_quantile)
    labels = best_turn_labels(view.weighted_maxima, settings, charge, view.segment_has_sentences)
    chosen = _allowed_best_segment(view, charge, labels)
    words = view.turn_weights
    support = np.full(layout.n_turns, np.nan)
    rows = np.flatnonzero(view.turn_has_sentences & (chosen >= 0) & (words > 0))
    margins = view.evidence_at(charge, rows, chosen[rows])
    support[rows] = margins / words[rows] + settings.match_offset
    labels = fill_unvisited(np.where(view.turn_has_sentences, labels, NOT_VISITED))
    return PathOutcome(labels, support, np.ones(layout.n_turns))


def _allowed_best_segment(view: SegmentView, charge: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """A turn's own segment, or for an unaligned turn the best one between the segments of
    the aligned turns around it (-1 when the report has no segment)."""
    n_turns, n_segments = view.n_turns, view.n_segments
    if n_segments == 0:
        return np.full(n_turns, -1, dtype=np.int64)
    aligned = labels >= 0
    before = np.maximum.accumulate(np.where(aligned, labels, 0))
    after = np.minimum.accumulate(np.where(aligned, labels, n_segments - 1)[::-1])[::-1]
    chosen = labels.copy()
    for turn in np.flatnonzero(~aligned):
        low, high = before[turn], max(after[turn], before[turn])
        evidence = view.evidence_at(charge, int(turn), np.arange(low, high + 1))
        chosen[turn] = low + int(np.argmax(evidence))
    return chosen


def decide(
    outcome: PathOutcome, layout: SentenceLayout, params: AlignmentParams
) -> AlignmentResult:
    """Abstention and confidence on top of a path outcome."""
    words = layout.turn_word_counts
    rule = params.abstention
    labels = abstain(outcome.labels, outcome.support, words, rule.min_support, rule.min_words)
    return AlignmentResult(
        labels=labels,
        confidence=confidence(labels, outcome.support, outcome.share, words, params.evidence_level),
    )


def align_scores(
    scores: ScoreRows | np.ndarray,
    layout: SentenceLayout,
    params: AlignmentParams,
    blocking: Blocking = DEFAULT_BLOCKING,
) -> AlignmentResult:
    return decide(path_outcome(scores, layout, params, blocking=blocking), layout, params)


def align_meeting(
    meeting: Meeting,
    params: AlignmentParams,
    vectors: KeyedVectors | None = None,
    blocking: Blocking = DEFAULT_BLOCKING,
) -> AlignmentResult:
    """The Celery-facing entry point; `vectors` is required for embedding scoring. `blocking`
    bounds the turn path's memory and changes nothing in its result."""
    layout = sentence_layout(meeting)
    if isinstance(params.path, HmmSettings):
        return decide(hmm_outcome(meeting, params, vectors), layout, params)
    scores: ScoreRows | np.ndarray
    if isinstance(params.path, DiagonalSettings):
        shape = (len(layout.transcript_sentences), len(layout.report_sentences))
        scores = np.zeros(shape, np.float32)
    else:
        scores = meeting_scorer(layout, params.scoring, vectors)
    return align_scores(scores, layout, params, blocking)


SECOND_OPINION_MAX_CELLS = 400_000_000
"""Transcript words times report sentences above which a document gets no second opinions:
the HMM keeps a byte per word and report sentence (and the sentence paths their whole
similarity matrix), 400 MB at this size, where the turn path reads its similarities in
blocks. Every public_meetings meeting is below it (the largest 306 million); a day-long
recording is not, and is then scored without them."""


def second_opinions(
    meeting: Meeting,
    params: AlignmentParams,
    vectors: KeyedVectors | None,
    layout: SentenceLayout,
    scores: ScoreRows | np.ndarray,
) -> np.ndarray | None:
    """(len(SECOND_OPINIONS), turns): the labels of the engine's other aligners, each with
    its default path settings on the same scoring and vectors (`align_meeting`'s labels), or
    None for a document above SECOND_OPINION_MAX_CELLS. Defaults, not tuned settings, so that
    the opinions cost no tuning and stay independent of the path they judge. `layout` and
    `scores` are the turn path's own: the sentence paths share one matrix of them, filled
    after the HMM has let go of its own buffers."""
    if int(layout.turn_word_counts.sum()) * len(layout.report_sentences) > SECOND_OPINION_MAX_CELLS:
        return None
    labels = []
    matrix: np.ndarray | None = None
    for aligner in SECOND_OPINIONS:
        other = params.with_changes({"aligner": aligner})
        if isinstance(other.path, HmmSettings):
            labels.append(decide(hmm_outcome(meeting, other, vectors), layout, other).labels)
            continue
        if matrix is None:
            matrix = whole_matrix(scores)
        labels.append(align_scores(matrix, layout, other).labels)
    return np.stack(labels).reshape(len(SECOND_OPINIONS), layout.n_turns)


def turn_evidence(
    meeting: Meeting,
    params: AlignmentParams,
    vectors: KeyedVectors | None = None,
    blocking: Blocking = DEFAULT_BLOCKING,
    *,
    with_opinions: bool = True,
) -> tuple[AlignmentResult, TurnEvidence]:
    """The turn path's alignment and what it computed about each turn, which
    `learned.LearnedDecision` learns from and corrects (with the other aligners' labels,
    `second_opinions`, unless `with_opinions` is false: a decision that does not read them
    spares three alignments): the same labels as `align_meeting`."""
    settings = params.path
    if not isinstance(settings, TurnSettings):
        raise ValueError(f"learned decisions read the turn path's evidence, not {params.aligner}")
    layout = sentence_layout(meeting)
    scores = meeting_scorer(layout, params.scoring, vectors)
    view = segment_view(scores, layout, turn_quantiles([settings]), blocking)
    outcome = _turn_outcome(view, layout, settings)
    result = decide(outcome, layout, params)
    charge = view.charge(settings.match_offset, settings.baseline_quantile)
    candidate = _allowed_best_segment(view, charge, result.labels)
    words = np.maximum(view.turn_weights, 1.0)
    per_word = np.full((layout.n_turns, 3), EVIDENCE_FLOOR)
    for column, shift in enumerate((0, -1, 1)):
        segments = candidate + shift
        rows = np.flatnonzero((candidate >= 0) & (segments >= 0) & (segments < view.n_segments))
        if len(rows):
            evidence = view.evidence_at(charge, rows, segments[rows]) / words[rows]
            per_word[rows, column] = np.maximum(evidence, EVIDENCE_FLOOR)
    if view.n_segments:
        best = view.evidence(charge).max(axis=1) / words
    else:
        best = np.full(layout.n_turns, EVIDENCE_FLOOR)
    features = turn_features(
        result.labels,
        candidate,
        per_word,
        np.maximum(best, EVIDENCE_FLOOR),
        layout.turn_word_counts,
        settings.unaligned_gain,
        [turn.speaker for turn in meeting.transcript.turns],
        result.confidence,
        state_margins(
            view.weighted_maxima, settings, result.labels, charge, view.segment_has_sentences
        ),
    )
    evidence = TurnEvidence(
        labels=result.labels,
        candidate=candidate,
        n_segments=view.n_segments,
        features=features,
        word_counts=np.asarray([turn.word_count for turn in meeting.transcript.turns]),
        opinions=second_opinions(meeting, params, vectors, layout, scores)
        if with_opinions
        else None,
    )
    return result, evidence


def align_and_decide(
    meeting: Meeting,
    params: AlignmentParams,
    vectors: KeyedVectors | None,
    learned: LearnedDecision | None,
) -> AlignmentResult:
    """`align_meeting`, then the learned decision stored with the parameters when there is
    one: its labels and its calibrated probability that each is right as the confidence."""
    if learned is None:
        return align_meeting(meeting, params, vectors)
    _, evidence = turn_evidence(
        meeting, params, vectors, with_opinions=learned.with_opinions is not None
    )
    labels, probability = learned.decide(evidence)
    return AlignmentResult(labels=labels, confidence=probability)


def fit_learned_decision(
    gold: Sequence[Meeting], params: AlignmentParams, vectors: KeyedVectors | None
) -> LearnedDecision:
    """The learned decision for `params`, fitted on gold meetings (their `reference`)."""
    return fit_decision(
        [
            (turn_evidence(meeting, params, vectors)[1], np.asarray(meeting.reference))
            for meeting in gold
        ]
    )
