"""Whether a tuning run's best settings beat the parameters in use by more than chance.

A first tuning run ranks hundreds of settings on three or four gold documents. Their figures
differ by which documents happened to be gold as much as by the settings: a setting that wins
by a point on three documents may lose on the fourth, and hundreds may tie. So the difference
between a candidate's objective and the incumbent's on the same documents is judged against
its uncertainty across documents: a percentile bootstrap over documents (the gold documents
drawn with replacement, both objectives recomputed on each draw exactly as the run computes
them, micro-averaged over the drawn documents' turns). A candidate is proposed only when the
interval's lower bound is above zero: the gain holds on most ways the gold could have fallen.

Candidates with the same scores on every document are one choice, not several: the gold cannot
tell them apart, so the first in rank order stands for them and the others are counted.

Pure numpy; the web application's tuning service calls `propose` when a run finishes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from workers.align.metrics import MeetingScores
from workers.align.tuning.tune import Objective, SettingResult

BOOTSTRAP_RESAMPLES = 2000
"""Draws of the gold documents; the 2.5th and 97.5th percentiles of 2,000 draws move by well
under a tenth of a point from one seed to another."""
CONFIDENCE = 0.95
"""The share of draws the interval holds: a gain is proposed when 97.5 % of the draws keep it."""
BOOTSTRAP_SEED = 0
"""Fixed, so the same gold and the same scores always give the same proposal."""

Reason = Literal["", "incumbent_best", "within_uncertainty"]
"""Why a run proposes nothing: no candidate scores above the incumbent on the gold
("incumbent_best"), or some do but none by more than the bootstrap interval's width
("within_uncertainty"); empty when there is a proposal."""


@dataclass(frozen=True)
class Gain:
    """A candidate's objective less the incumbent's on the same gold documents, and the
    bootstrap interval of that difference over the documents (objective units: percentage
    points of turns for the "turns" objective)."""

    difference: float
    low: float
    high: float

    @property
    def clears(self) -> bool:
        return self.low > 0.0


@dataclass(frozen=True)
class Verdict:
    """What a run proposes. `proposal` and `incumbent` are positions in the ranked results;
    `ties` counts the candidates (the incumbent apart) whose scores equal, document by
    document, those of the proposal, or of the best challenger when there is no proposal;
    `gains` has one entry per ranked result (None for the incumbent, for a candidate not
    scored on every document the incumbent was, and for every one when no incumbent was
    scored)."""

    proposal: int | None
    best_challenger: int | None
    ties: int
    reason: Reason
    gains: tuple[Gain | None, ...]


def resample_documents(documents: int, resamples: int, seed: int) -> np.ndarray:
    """(resamples, documents): each draw's document positions, drawn with replacement."""
    return np.random.default_rng(seed).integers(0, documents, size=(resamples, documents))


_TURNS, _WORDS, _SEGMENT_HITS, _WORD_HITS, _WINDOWDIFF_TURNS = range(5)


def _totals(per_document: Sequence[MeetingScores]) -> np.ndarray:
    """(documents, 5): the counts a micro-average sums, WindowDiff weighted by turns (an
    undefined WindowDiff counts 0, as `micro_average` counts it)."""
    return np.array(
        [
            [s.turns, s.words, s.segment_hits, s.word_hits, (s.windowdiff or 0.0) * s.turns]
            for s in per_document
        ],
        dtype=np.float64,
    ).reshape(len(per_document), 5)


def _objective(totals: np.ndarray, kind: Objective) -> np.ndarray:
    """`tune.objective` of `micro_average`, over the last axis of summed totals."""
    turns, words = totals[..., _TURNS], totals[..., _WORDS]
    with np.errstate(divide="ignore", invalid="ignore"):
        segment = np.where(turns > 0, 100.0 * totals[..., _SEGMENT_HITS] / turns, 0.0)
        if kind == "turns":
            return segment
        word = np.where(words > 0, 100.0 * totals[..., _WORD_HITS] / words, 0.0)
        windowdiff = np.where(turns > 0, 100.0 * totals[..., _WINDOWDIFF_TURNS] / turns, 0.0)
    if kind == "balanced":
        return segment + word - windowdiff
    raise ValueError(f"unknown objective {kind!r}")


def gains_over(
    candidates: Sequence[SettingResult],
    incumbent: SettingResult,
    kind: Objective,
    resamples: int = BOOTSTRAP_RESAMPLES,
    confidence: float = CONFIDENCE,
    seed: int = BOOTSTRAP_SEED,
) -> list[Gain | None]:
    """Per candidate, its gain over the incumbent on the incumbent's documents with its
    percentile bootstrap interval; None for a candidate not scored on all of them. Every
    candidate is compared on the same draws, so their intervals differ only by their scores."""
    documents = [document for document, _ in incumbent.per_meeting]
    if not documents:
        return [None for _ in candidates]
    draws = resample_documents(len(documents), resamples, seed)
    weights = np.zeros((resamples, len(documents)))
    np.add.at(weights, (np.arange(resamples)[:, None], draws), 1.0)
    incumbent_totals = _totals([scores for _, scores in incumbent.per_meeting])
    incumbent_all = _objective(incumbent_totals.sum(axis=0), kind)
    incumbent_drawn = _objective(weights @ incumbent_totals, kind)
    tail = 100.0 * (1.0 - confidence) / 2.0
    found: list[Gain | None] = []
    for candidate in candidates:
        scores_of = dict(candidate.per_meeting)
        if any(document not in scores_of for document in documents):
            found.append(None)
            continue
        totals = _totals([scores_of[document] for document in documents])
        drawn = _objective(weights @ totals, kind) - incumbent_drawn
        low, high = np.percentile(drawn, [tail, 100.0 - tail])
        difference = _objective(totals.sum(axis=0), kind) - incumbent_all
        found.append(Gain(float(difference), float(low), float(high)))
    return found


def propose(
    ranked: Sequence[SettingResult],
    incumbent: int | None,
    kind: Objective,
    resamples: int = BOOTSTRAP_RESAMPLES,
    confidence: float = CONFIDENCE,
    seed: int = BOOTSTRAP_SEED,
) -> Verdict:
    """The proposal among `ranked` (best first): the best-ranked challenger whose gain over
    the incumbent (at position `incumbent`) clears zero with its whole interval, or nothing.
    Without a scored incumbent the best challenger is proposed, as nothing in use can be
    compared with it."""
    challengers = [position for position in range(len(ranked)) if position != incumbent]
    best = challengers[0] if challengers else None
    if incumbent is None:
        return Verdict(best, best, _ties(ranked, best, incumbent), "", (None,) * len(ranked))
    gains = gains_over(ranked, ranked[incumbent], kind, resamples, confidence, seed)
    gains[incumbent] = None
    cleared = [position for position in challengers if (gain := gains[position]) and gain.clears]
    proposal = cleared[0] if cleared else None
    reason: Reason = ""
    if proposal is None:
        ahead = any((gain := gains[position]) and gain.difference > 0 for position in challengers)
        reason = "within_uncertainty" if ahead else "incumbent_best"
    ties = _ties(ranked, proposal if proposal is not None else best, incumbent)
    return Verdict(proposal, best, ties, reason, tuple(gains))


def _ties(ranked: Sequence[SettingResult], chosen: int | None, incumbent: int | None) -> int:
    """How many challengers score exactly as `chosen` on every document (itself included)."""
    if chosen is None:
        return 0
    scores = dict(ranked[chosen].per_meeting)
    return sum(
        1
        for position, result in enumerate(ranked)
        if position != incumbent and dict(result.per_meeting) == scores
    )
