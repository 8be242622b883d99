"""Agreement between annotators on the task's own units: each transcript turn's label (the
report segment it belongs to, or unaligned).

Chance-corrected measures are Cohen's kappa (two coders) and Krippendorff's alpha (nominal,
or ordinal for ranked answers such as raters' no / partly / yes; any number of coders, missing
values allowed), as Krippendorff (2011, "Computing
Krippendorff's Alpha-Reliability") and Cohen (1960) define them. Both are computed from sparse
counts: a unit holds at most one value per coder, whereas the dense coincidence matrix the
`krippendorff` package builds is units x values x values, which for one iteration of six
meetings (5,000 turns, 600 segments) is 1.8 billion cells. The tests check both against the
published worked examples and against that package on random data.

Segments are per-document positions, so pooled figures (several documents) code a label as
(document, segment): segment 3 of one meeting is not segment 3 of another. Unaligned is one
category everywhere. Boundaries are compared with the benchmark's WindowDiff and Pk
(`metrics.py`), with a window that does not favour either coder: half the mean segment
length of the two, minus one.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import asdict, dataclass
from itertools import combinations
from typing import Any, Literal

import numpy as np

from workers.align.document_model import UNALIGNED
from workers.align.metrics import boundary_flags, pk, window_size, windowdiff

MISSING = -2
"""In a reliability matrix: the coder did not label the unit."""

MEASURES = (
    "turn_agreement",
    "word_agreement",
    "kappa",
    "alpha",
    "unaligned_agreement",
    "windowdiff",
    "pk",
)
"""The figures of an `Agreement`, in the order reports list them."""


def cohen_kappa(
    first: Sequence[int] | np.ndarray, second: Sequence[int] | np.ndarray
) -> float | None:
    """(p_o - p_e) / (1 - p_e) for two coders' labels of the same units (shapes (units,)).

    None when it is undefined: no units, or both coders gave one and the same label throughout
    (p_e = 1)."""
    first, second = np.asarray(first, dtype=np.int64), np.asarray(second, dtype=np.int64)
    if first.shape != second.shape or first.ndim != 1:
        raise ValueError(f"labels {first.shape} and {second.shape} must be equal-length vectors")
    if len(first) == 0:
        return None
    _, codes = np.unique(np.concatenate([first, second]), return_inverse=True)
    categories = int(codes.max()) + 1
    share_first = np.bincount(codes[: len(first)], minlength=categories) / len(first)
    share_second = np.bincount(codes[len(first) :], minlength=categories) / len(first)
    expected = float(share_first @ share_second)
    if expected >= 1.0:
        return None
    observed = float(np.mean(first == second))
    return (observed - expected) / (1.0 - expected)


def krippendorff_alpha(
    reliability: np.ndarray, level: Literal["nominal", "ordinal"] = "nominal"
) -> float | None:
    """alpha = 1 - D_o / D_e for a (coders, units) matrix of labels, MISSING where a coder did
    not label a unit. Units labelled by fewer than two coders are not pairable and do not
    count. None when no two values are pairable or all pairable values are equal.

    `nominal` counts every disagreement alike (turn labels: segment 3 is no nearer segment 4
    than segment 40). `ordinal` weighs a disagreement by how many pairable values lie between
    the two ranks (raters' no < partly < yes: no against yes is worse than partly against
    yes); labels are then ranks, ordered as integers."""
    reliability = np.asarray(reliability, dtype=np.int64)
    if reliability.ndim != 2:
        raise ValueError(f"reliability data must be (coders, units), got {reliability.shape}")
    if level not in ("nominal", "ordinal"):
        raise ValueError(f"level must be 'nominal' or 'ordinal', got {level!r}")
    present = reliability != MISSING
    per_unit = present.sum(axis=0)
    pairable = per_unit >= 2
    coder_index, unit_index = np.nonzero(present[:, pairable])
    values = reliability[:, pairable][coder_index, unit_index]
    total = len(values)
    if total < 2:
        return None
    _, value_codes = np.unique(values, return_inverse=True)
    value_count = int(value_codes.max()) + 1
    marginals = np.bincount(value_codes, minlength=value_count)
    if level == "ordinal":
        return _ordinal_alpha(unit_index, value_codes, per_unit[pairable], marginals)
    cells, in_unit = np.unique(unit_index * value_count + value_codes, return_counts=True)
    coders_of_unit = per_unit[pairable][cells // value_count]
    observed = float(np.sum(in_unit * (coders_of_unit - in_unit) / (coders_of_unit - 1))) / total
    expected = float(np.sum(marginals * (total - marginals))) / (total * (total - 1))
    if expected == 0.0:
        return None
    return 1.0 - observed / expected


def _ordinal_alpha(
    unit_index: np.ndarray, value_codes: np.ndarray, coders: np.ndarray, marginals: np.ndarray
) -> float | None:
    """Through the values x values coincidence matrix, which ordinal data keeps small (a few
    ranks), with Krippendorff's ordinal metric: delta(c, k) = (sum of n_g for g from c to k,
    minus (n_c + n_k) / 2) squared."""
    value_count, total = len(marginals), int(marginals.sum())
    counts = np.zeros((len(coders), value_count))
    np.add.at(counts, (unit_index, value_codes), 1.0)
    weights = 1.0 / (coders - 1)
    coincidences = counts.T @ (counts * weights[:, None]) - np.diag(weights @ counts)
    cumulative = np.concatenate([[0], np.cumsum(marginals)])
    low = np.minimum.outer(np.arange(value_count), np.arange(value_count))
    high = np.maximum.outer(np.arange(value_count), np.arange(value_count))
    between = cumulative[high + 1] - cumulative[low]
    delta = (between - (marginals[:, None] + marginals[None, :]) / 2.0) ** 2
    np.fill_diagonal(delta, 0.0)
    expected = float(marginals @ delta @ marginals)
    if expected == 0.0:
        return None
    return 1.0 - (total - 1) * float(np.sum(coincidences * delta)) / expected


def symmetric_window(first_flags: np.ndarray, second_flags: np.ndarray) -> int:
    """The benchmark's k taken over both coders' boundaries, so neither is the reference."""
    return window_size(np.concatenate([first_flags, second_flags]))


@dataclass(frozen=True)
class CodedDocument:
    """One document's labels (shape (turns,)) by each coder who labelled all of it."""

    labels: Mapping[Any, Sequence[int]]
    """Keyed by coder: any hashable name (a user id, a username, "gold")."""
    word_counts: Sequence[int]


@dataclass(frozen=True)
class Agreement:
    """Agreement among `coders` over the units at least two of them labelled.

    Percentages: `turn_agreement` (observed agreement by turns: all coders of a unit gave it
    the same label), `word_agreement` (the same, each turn weighted by its words),
    `unaligned_agreement` (all agree whether the turn is unaligned), `windowdiff` and `pk`
    (boundaries; lower is better). `kappa` is Cohen's for a pair and the mean over pairs
    (Light's kappa) for more coders; `alpha` is Krippendorff's nominal alpha. A figure is
    None when undefined (e.g. no shared units).
    """

    coders: tuple[Hashable, ...]
    documents: int
    units: int
    unit_words: int
    turn_agreement: float | None
    word_agreement: float | None
    kappa: float | None
    alpha: float | None
    unaligned_agreement: float | None
    windowdiff: float | None
    pk: float | None

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class AgreementReport:
    overall: Agreement
    pairs: tuple[Agreement, ...]

    def as_dict(self) -> dict:
        return {"overall": self.overall.as_dict(), "pairs": [p.as_dict() for p in self.pairs]}


def agreement(documents: Sequence[CodedDocument]) -> AgreementReport:
    """Agreement over one document or pooled over several (an iteration, a corpus)."""
    coders = tuple(dict.fromkeys(coder for document in documents for coder in document.labels))
    for document in documents:
        for coder, labels in document.labels.items():
            if len(labels) != len(document.word_counts):
                raise ValueError(
                    f"coder {coder!r} labels {len(labels)} turns of a "
                    f"{len(document.word_counts)}-turn document"
                )
    reliability, words = _pooled(documents, coders)
    pairs = tuple(
        _pair_agreement(documents, (first, second), reliability[[i, j]], words)
        for (i, first), (j, second) in combinations(enumerate(coders), 2)
    )
    return AgreementReport(
        overall=_overall(documents, coders, reliability, words, pairs), pairs=pairs
    )


def _pooled(
    documents: Sequence[CodedDocument], coders: tuple[Hashable, ...]
) -> tuple[np.ndarray, np.ndarray]:
    """A (coders, units) matrix over all documents' turns, labels coded per document
    (UNALIGNED stays UNALIGNED), MISSING where a coder did not label a document; and the
    units' word counts."""
    lengths = [len(document.word_counts) for document in documents]
    reliability = np.full((len(coders), sum(lengths)), MISSING, dtype=np.int64)
    start, segment_base = 0, 0
    for document, length in zip(documents, lengths, strict=True):
        widest = 0
        for row, coder in enumerate(coders):
            if coder not in document.labels:
                continue
            labels = np.asarray(document.labels[coder], dtype=np.int64)
            if len(labels):
                widest = max(widest, int(labels.max()) + 1)
            reliability[row, start : start + length] = np.where(
                labels == UNALIGNED, UNALIGNED, labels + segment_base
            )
        start += length
        segment_base += widest
    words = np.concatenate(
        [np.asarray(document.word_counts, dtype=np.int64) for document in documents]
        or [np.zeros(0, dtype=np.int64)]
    )
    return reliability, words


def _pair_agreement(
    documents: Sequence[CodedDocument],
    pair: tuple[Hashable, Hashable],
    reliability: np.ndarray,
    words: np.ndarray,
) -> Agreement:
    shared = (reliability != MISSING).all(axis=0)
    first, second = reliability[0, shared], reliability[1, shared]
    unit_words = words[shared]
    both = [document for document in documents if all(c in document.labels for c in pair)]
    windowdiff_value, pk_value = _boundaries(both, pair)
    return Agreement(
        coders=pair,
        documents=len(both),
        units=int(shared.sum()),
        unit_words=int(unit_words.sum()),
        turn_agreement=_percent(first == second),
        word_agreement=_percent(first == second, unit_words),
        kappa=cohen_kappa(first, second),
        alpha=krippendorff_alpha(reliability[:, shared]),
        unaligned_agreement=_percent((first == UNALIGNED) == (second == UNALIGNED)),
        windowdiff=windowdiff_value,
        pk=pk_value,
    )


def _overall(
    documents: Sequence[CodedDocument],
    coders: tuple[Hashable, ...],
    reliability: np.ndarray,
    words: np.ndarray,
    pairs: tuple[Agreement, ...],
) -> Agreement:
    present = reliability != MISSING
    pairable = present.sum(axis=0) >= 2
    top, bottom = np.iinfo(np.int64).max, np.iinfo(np.int64).min
    lowest = np.where(present[:, pairable], reliability[:, pairable], top).min(axis=0, initial=top)
    highest = np.where(present[:, pairable], reliability[:, pairable], bottom).max(
        axis=0, initial=bottom
    )
    unanimous = lowest == highest
    unaligned = np.where(present[:, pairable], reliability[:, pairable] == UNALIGNED, False)
    some_unaligned = unaligned.any(axis=0)
    all_unaligned = (unaligned | ~present[:, pairable]).all(axis=0)
    kappas = [p.kappa for p in pairs if p.kappa is not None]
    weighted = [p for p in pairs if p.units]
    return Agreement(
        coders=coders,
        documents=sum(1 for document in documents if len(document.labels) >= 2),
        units=int(pairable.sum()),
        unit_words=int(words[pairable].sum()),
        turn_agreement=_percent(unanimous),
        word_agreement=_percent(unanimous, words[pairable]),
        kappa=float(np.mean(kappas)) if kappas else None,
        alpha=krippendorff_alpha(reliability),
        unaligned_agreement=_percent(all_unaligned | ~some_unaligned),
        windowdiff=_turn_weighted([(p.windowdiff, p.units) for p in weighted]),
        pk=_turn_weighted([(p.pk, p.units) for p in weighted]),
    )


def _boundaries(
    documents: Sequence[CodedDocument], pair: tuple[Hashable, Hashable]
) -> tuple[float | None, float | None]:
    """WindowDiff and Pk per document, weighted by its turns, in percent."""
    windowdiffs, pks = [], []
    for document in documents:
        first = boundary_flags(document.labels[pair[0]])
        second = boundary_flags(document.labels[pair[1]])
        k = symmetric_window(first, second)
        turns = len(document.word_counts)
        windowdiffs.append((_in_percent(windowdiff(first, second, k)), turns))
        pks.append((_in_percent(pk(first, second, k)), turns))
    return _turn_weighted(windowdiffs), _turn_weighted(pks)


def _in_percent(fraction: float | None) -> float | None:
    return None if fraction is None else 100.0 * fraction


def _turn_weighted(values: Sequence[tuple[float | None, int]]) -> float | None:
    """The mean of the defined values, weighted; None when none is."""
    defined = [(value, weight) for value, weight in values if value is not None]
    total = sum(weight for _, weight in defined)
    if not total:
        return None
    return sum(value * weight for value, weight in defined) / total


def _percent(hits: np.ndarray, weights: np.ndarray | None = None) -> float | None:
    if weights is None:
        return 100.0 * float(np.mean(hits)) if len(hits) else None
    total = int(weights.sum())
    return 100.0 * float(weights[hits].sum()) / total if total else None
