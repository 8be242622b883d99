"""Rating studies of automatic pairs, as DiscoFuse judged its generated data: human raters
answer a stratified sample, and the corpus is published with what they found.

A sample stratified by confidence over-represents the rare low-confidence pairs, so figures
for the corpus above a threshold weigh each rated pair by how many corpus pairs it stands for
(its bin's population over the bin's sample): the share of good pairs among those an export at
`min_confidence` keeps is then estimated without the sampling's bias.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

ANSWERS = ("no", "partly", "yes")
"""In rank order: the ordinal alpha codes an answer by its index."""
Z_95 = 1.959963984540054
REACHED = 1e-9
"""A weighted share equal to the target up to rounding (0.8999999999999999) reaches it."""


def wilson_interval(successes: float, trials: int, z: float = Z_95) -> tuple[float, float] | None:
    """The Wilson score interval of a binomial share: unlike the normal approximation it
    stays within [0, 1] and is sensible at 0 or n successes of a few trials. Successes may be
    fractional (pairs whose raters split count by their share of the answer). None without
    trials."""
    if trials <= 0:
        return None
    share = successes / trials
    denominator = 1 + z * z / trials
    centre = (share + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials))
    half /= denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Bin:
    """Pairs whose confidence lies in [low, high] (the last bin's high is the largest)."""

    index: int
    low: float
    high: float
    population: int


def confidence_bins(confidences: Sequence[float], count: int) -> list[Bin]:
    """`count` bins of (nearly) equal counts over the sorted confidences, so each bin has as
    many pairs to sample from; fewer when there are fewer pairs than bins."""
    ordered = np.sort(np.asarray(confidences, dtype=float))
    chunks = [chunk for chunk in np.array_split(ordered, max(1, count)) if len(chunk)]
    return [
        Bin(index=i, low=float(chunk[0]), high=float(chunk[-1]), population=len(chunk))
        for i, chunk in enumerate(chunks)
    ]


def stratified_sample(
    confidences: Sequence[float], bins: Sequence[Bin], size: int, rng: np.random.Generator
) -> list[tuple[int, int]]:
    """(pair index, bin index) for `size` pairs drawn without replacement, as equal a number
    per bin as the bins' populations allow. Bins are the sorted order's chunks, so a tie at a
    bin edge goes to the chunk the sort put it in."""
    order = np.argsort(np.asarray(confidences, dtype=float), kind="stable")
    members, start = [], 0
    for bin_ in bins:
        members.append(order[start : start + bin_.population])
        start += bin_.population
    quotas = _quotas([len(m) for m in members], size)
    drawn = []
    for bin_, pool, quota in zip(bins, members, quotas, strict=True):
        for index in rng.choice(pool, size=quota, replace=False):
            drawn.append((int(index), bin_.index))
    return drawn


def _quotas(populations: list[int], size: int) -> list[int]:
    """Equal shares of `size`, a full bin's surplus passed on to the bins with room."""
    quotas = [0] * len(populations)
    remaining = min(size, sum(populations))
    while remaining:
        open_bins = [i for i, p in enumerate(populations) if quotas[i] < p]
        share = max(1, remaining // len(open_bins))
        for i in open_bins:
            take = min(share, populations[i] - quotas[i], remaining)
            quotas[i] += take
            remaining -= take
            if not remaining:
                break
    return quotas


@dataclass(frozen=True)
class RatedPair:
    """One sampled automatic pair: its confidence, its bin, and its raters' yes share."""

    confidence: float
    bin_index: int
    yes_share: float


def estimated_yes_share(
    pairs: Sequence[RatedPair], bins: Sequence[Bin], min_confidence: float
) -> float | None:
    """The share of yes among the corpus's automatic pairs at or above `min_confidence`, each
    rated pair weighted by its bin's population over the bin's rated pairs. None when no
    rated pair is at or above the threshold."""
    rated_per_bin: dict[int, int] = {}
    for pair in pairs:
        rated_per_bin[pair.bin_index] = rated_per_bin.get(pair.bin_index, 0) + 1
    population = {bin_.index: bin_.population for bin_ in bins}
    total = weighted = 0.0
    for pair in pairs:
        if pair.confidence < min_confidence:
            continue
        weight = population[pair.bin_index] / rated_per_bin[pair.bin_index]
        total += weight
        weighted += weight * pair.yes_share
    return weighted / total if total else None


def lowest_threshold(
    pairs: Sequence[RatedPair], bins: Sequence[Bin], target: float
) -> tuple[float, float] | None:
    """The lowest rated confidence whose estimated yes share reaches `target`, and that
    share: the threshold that keeps the most pairs at the asked quality. None when none does."""
    for threshold in sorted({pair.confidence for pair in pairs}):
        share = estimated_yes_share(pairs, bins, threshold)
        if share is not None and share >= target - REACHED:
            return threshold, share
    return None
