"""Degenerate pre-alignments, detected from the result alone and said in words.

A pre-alignment can fail without any error: word vectors trained on a few short texts, or a
language setting that does not match the texts, give similarities that are all alike, and the
path then puts every turn on one segment, leaves every turn out, or gives every turn the same
confidence. `diagnose` reads only what every aligner returns (per turn a segment or -1 and a
confidence) with the turns' word counts and the report's segments, so the command line, the
Python API and the web app's pre-alignment job say the same thing about the same result.

Each finding says what happened, its likely cause, and what to do. The thresholds come from
the 22 public_meetings meetings aligned with the shipped defaults, once with word vectors
trained on the whole corpus (the measured, healthy case: one finding, on the meeting whose
report covers 7 % of it) and once with word2vec trained on each meeting's own texts (the cold
start issue 34 reported: five meetings collapse onto one segment, and are found). With the
lexical vectors new documents get since, one-document projects give the same single finding
as the corpus case.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np

from workers.align.document_model import Meeting
from workers.align.scoring.lexical import language_mismatch

ONE_SEGMENT_SHARE = 0.5
"""More than this share of the aligned turns' words on one segment is a collapse, in a report
of ONE_SEGMENT_MANY_SEGMENTS segments or more. With the shipped defaults and word vectors
trained on the meeting's own texts, five of the 22 public_meetings meetings collapse so (74 to
100 % of their words on one segment, 9 to 48 % of their turns right), while the gold of
reports this long puts at most 54 % on one segment (398ab01c; 69 % in 744c8e99, whose gold
aligns 7 % of its words) and results with corpus vectors at most 31 %."""

ONE_SEGMENT_MANY_SEGMENTS = 20
"""Reports with fewer segments get the higher ONE_SEGMENT_SHARE_FEW: in a short report one
intervention may answer most of the meeting (686239f0's gold puts 72 % of its words on one of
its 12 segments)."""

ONE_SEGMENT_SHARE_FEW = 0.8
"""The one-segment threshold for reports of ONE_SEGMENT_MIN_SEGMENTS to
ONE_SEGMENT_MANY_SEGMENTS - 1 segments: above 686239f0's true 72 %, below the collapse issue 34
saw in a fresh web project on a 33-turn meeting (32 turns on segment 1), and 686239f0 is the
corpus's only meeting of 33 turns."""

ONE_SEGMENT_MIN_SEGMENTS = 4
"""Below this many segments the one-segment finding is not looked for: with two or three,
most of the words on one segment can be the truth."""

UNALIGNED_SHARE = 0.9
"""At least this share of the transcript's words left unaligned means the aligner found
(nearly) nothing to pair. Annotators leave out procedure and chit-chat: under a quarter of the
words in 20 of the 22 public_meetings meetings, 53 % in 70f6b388. The other, 744c8e99, has a
report that covers 7 % of its meeting, and the engine with corpus vectors leaves all of it
unaligned: the finding then rightly asks whether the report is this transcript's."""

CONSTANT_CONFIDENCE_SPREAD = 0.05
"""Confidences whose middle 90 % (5th to 95th percentile) span less than this tell the turns
apart no better than a constant: no turn stands out for review, and a rating study's bins all
fall in one narrow band (issue 34: 682 turns, all between 0.961 and 1.0)."""

CONSTANT_CONFIDENCE_MIN_TURNS = 30
"""The constant-confidence finding needs this many turns: a short document's few turns may
well all be equally sure."""

DIAGONAL_MIN_TURNS = 10
"""The below-diagonal estimate needs this many aligned turns to average over."""


@dataclass(frozen=True)
class Finding:
    """One thing wrong with a result: a stable `code` for programs, what happened in one
    sentence (`message`), its likely `cause`, and what to `do` about it, written for the
    lead who reads them in the editor's banner or on the command line's stderr."""

    code: str
    message: str
    cause: str
    do: str

    def as_dict(self) -> dict[str, str]:
        return asdict(self)


ONE_SEGMENT = "one_segment"
ALL_UNALIGNED = "all_unaligned"
CONSTANT_CONFIDENCE = "constant_confidence"
BELOW_DIAGONAL = "below_diagonal"
LANGUAGE_MISMATCH = "language_mismatch"
CODES = (ONE_SEGMENT, ALL_UNALIGNED, CONSTANT_CONFIDENCE, BELOW_DIAGONAL, LANGUAGE_MISMATCH)


def _weak_similarity(consequence: str) -> str:
    return (
        "The similarities between the transcript and the report are too weak or too alike to "
        f"tell the segments apart, so {consequence}: typically word vectors trained on too "
        "few texts, or a language setting that does not match the texts."
    )


_WHAT_TO_DO = (
    "Add more documents to the project (or align several pairs together), give word vectors "
    "trained on more text of this language, or check the language setting"
)


def diagnose(
    labels: Sequence[int] | np.ndarray,
    confidences: Sequence[float] | np.ndarray,
    turn_word_counts: Sequence[int] | np.ndarray,
    n_segments: int,
    segment_word_counts: Sequence[int] | np.ndarray | None = None,
) -> list[Finding]:
    """What is degenerate about one document's alignment, in a stable order (empty when
    nothing is). `labels` per turn: a segment index or -1 (unaligned); `confidences` per turn
    in [0, 1] (empty when the aligner gives none: the findings that read them are skipped);
    `segment_word_counts`, when given, places the diagonal by the segments' lengths, else
    every segment is taken as equally long. A result that aligns (nearly) nothing is said so
    and no more: its confidences, all alike when no turn has any evidence, add nothing to the
    cause or the remedy."""
    labels = np.asarray(labels, dtype=np.int64)
    words = np.asarray(turn_word_counts, dtype=np.float64)
    if len(words) != len(labels):
        raise ValueError(f"{len(words)} word counts for {len(labels)} turns")
    confidence = np.asarray(confidences, dtype=np.float64)
    if len(confidence) not in (0, len(labels)):
        raise ValueError(f"{len(confidence)} confidences for {len(labels)} turns")
    if not len(labels) or n_segments <= 0 or words.sum() <= 0:
        return []
    unaligned = _all_unaligned(labels, words)
    findings = [_one_segment(labels, words, n_segments), unaligned]
    if len(confidence) and unaligned is None:
        diagonal = diagonal_labels(words, n_segments, segment_word_counts)
        findings += [
            _constant_confidence(confidence),
            _below_diagonal(labels, confidence, words, diagonal),
        ]
    return [finding for finding in findings if finding is not None]


def diagonal_labels(
    turn_word_counts: np.ndarray,
    n_segments: int,
    segment_word_counts: Sequence[int] | np.ndarray | None = None,
) -> np.ndarray:
    """Per turn, the segment the diagonal gives it: the segment whose share of the report
    (by words, or equal shares) covers the middle of the turn's share of the transcript."""
    words = np.asarray(turn_word_counts, dtype=np.float64)
    middles = (np.cumsum(words) - words / 2) / words.sum()
    if segment_word_counts is None:
        lengths = np.ones(n_segments)
    else:
        lengths = np.asarray(segment_word_counts, dtype=np.float64)
        if len(lengths) != n_segments:
            raise ValueError(f"{len(lengths)} segment word counts for {n_segments} segments")
        if lengths.sum() <= 0:
            lengths = np.ones(n_segments)
    ends = np.cumsum(lengths) / lengths.sum()
    return np.minimum(np.searchsorted(ends, middles, side="right"), n_segments - 1)


def diagonal_estimate(
    labels: np.ndarray, confidence: np.ndarray, words: np.ndarray, diagonal: np.ndarray
) -> tuple[float, float]:
    """Over the aligned turns (by words): (the result's expected accuracy, the most the
    diagonal can expect), both by the result's own confidences read as the probability that
    each turn's segment is right. Where the diagonal agrees with the result it is right exactly
    when the result is; where it departs, it can be right only where the result is wrong, with
    probability at most 1 - confidence. So the result is expected to do worse than the diagonal
    could exactly when its mean confidence on the turns it moved off the diagonal is below
    one half. Unaligned turns are left out: the diagonal places every turn, an unaligned turn
    is placed nowhere, and the shipped confidence of an abstention measures how far below the
    threshold its evidence is, not how likely the abstention is right (ALL_UNALIGNED covers a
    result that aligns nothing)."""
    aligned = labels >= 0
    weights = words[aligned]
    sure = confidence[aligned]
    agree = labels[aligned] == diagonal[aligned]
    total = weights.sum()
    expected = float((weights * sure).sum() / total)
    ceiling = float(((weights * sure)[agree].sum() + (weights * (1 - sure))[~agree].sum()) / total)
    return expected, ceiling


def one_segment_threshold(n_segments: int) -> float | None:
    """The share of the aligned words on one segment above which a result has collapsed onto
    it, or None when the report is too short to tell."""
    if n_segments < ONE_SEGMENT_MIN_SEGMENTS:
        return None
    return ONE_SEGMENT_SHARE if n_segments >= ONE_SEGMENT_MANY_SEGMENTS else ONE_SEGMENT_SHARE_FEW


def _one_segment(labels: np.ndarray, words: np.ndarray, n_segments: int) -> Finding | None:
    aligned = labels >= 0
    threshold = one_segment_threshold(n_segments)
    if threshold is None or not words[aligned].sum() > 0:
        return None
    per_segment = np.bincount(labels[aligned], weights=words[aligned], minlength=n_segments)
    share = per_segment.max() / per_segment.sum()
    if share <= threshold:
        return None
    segment = int(per_segment.argmax())
    turns = int((labels == segment).sum())
    return Finding(
        ONE_SEGMENT,
        f"{turns} of {len(labels)} turns ({share:.0%} of the aligned words) are on segment "
        f"{segment + 1} of the report's {n_segments}.",
        _weak_similarity("one segment wins everywhere"),
        _WHAT_TO_DO + "; until then, correct this document as if it had no pre-alignment.",
    )


def _all_unaligned(labels: np.ndarray, words: np.ndarray) -> Finding | None:
    unaligned = labels < 0
    share = words[unaligned].sum() / words.sum()
    if share < UNALIGNED_SHARE:
        return None
    return Finding(
        ALL_UNALIGNED,
        f"{int(unaligned.sum())} of {len(labels)} turns ({share:.0%} of the words) are left "
        "unaligned.",
        _weak_similarity("no turn clears the aligner's evidence threshold")
        + " Or the report covers little of this transcript.",
        _WHAT_TO_DO + "; and check that the report is this transcript's own.",
    )


def _constant_confidence(confidence: np.ndarray) -> Finding | None:
    if len(confidence) < CONSTANT_CONFIDENCE_MIN_TURNS:
        return None
    low, high = np.percentile(confidence, [5, 95])
    if high - low >= CONSTANT_CONFIDENCE_SPREAD:
        return None
    return Finding(
        CONSTANT_CONFIDENCE,
        f"Nine turns in ten have a confidence between {low:.3f} and {high:.3f}, so the "
        "confidences do not tell right turns from wrong ones.",
        "The confidence was calibrated on too few corrected documents, or the similarities are "
        "too alike to tell the turns apart.",
        "Review every turn rather than the low-confidence ones, and correct more documents "
        "before the next tuning run (or add documents or word vectors, as for weak "
        "similarities).",
    )


def _below_diagonal(
    labels: np.ndarray, confidence: np.ndarray, words: np.ndarray, diagonal: np.ndarray
) -> Finding | None:
    if int((labels >= 0).sum()) < DIAGONAL_MIN_TURNS:
        return None
    expected, ceiling = diagonal_estimate(labels, confidence, words, diagonal)
    if expected >= ceiling:
        return None
    return Finding(
        BELOW_DIAGONAL,
        f"By its own confidences this result gets about {expected:.0%} of the aligned words "
        f"right, where following the diagonal (turns spread over the segments in order) could "
        f"get up to {ceiling:.0%}.",
        _weak_similarity(
            "the aligner trusts less than half of the turns it moved off the diagonal"
        ),
        _WHAT_TO_DO + "; or pre-align with the diagonal baseline until there is gold to tune on.",
    )


def diagnose_meeting(
    meeting: Meeting,
    labels: Sequence[int] | np.ndarray,
    confidences: Sequence[float] | np.ndarray,
) -> list[Finding]:
    """`diagnose` for an alignment of `meeting`, its word counts read from its texts, and
    whether the texts are in the meeting's declared language."""
    findings = diagnose(
        labels,
        confidences,
        [turn.word_count for turn in meeting.transcript.turns],
        len(meeting.report.segments),
        [sum(len(s.split()) for s in segment.sentences) for segment in meeting.report.segments],
    )
    language = _language_mismatch(meeting)
    return [*findings, language] if language is not None else findings


def _language_mismatch(meeting: Meeting) -> Finding | None:
    sentences = [
        sentence
        for part in (meeting.transcript.turns, meeting.report.segments)
        for unit in part
        for sentence in unit.sentences
    ]
    likely = language_mismatch(sentences, meeting.language)
    if likely is None:
        return None
    return Finding(
        LANGUAGE_MISMATCH,
        f"The texts look like {likely!r}, not the declared language {meeting.language!r}.",
        "Words are split, stemmed and weighed by the declared language: in another language "
        "most of them count as rare names and the similarities lose their meaning.",
        f"Set the language to {likely!r} (the project's language, or --language "
        f"{likely}) and pre-align again.",
    )
