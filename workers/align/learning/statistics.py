"""Generic statistics the learned decision is built from, with no alignment in them: a
multinomial logistic regression, isotonic regression (pool adjacent violators), and the
measures of a probability's ranking and calibration (AUROC, expected calibration error,
reliability bins) that the dashboard and the benches report as well.

Everything is numpy and scipy's optimiser; a fitted model is plain JSON (`as_dict`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.optimize import minimize


@dataclass(frozen=True)
class Softmax:
    """Multinomial logistic regression on standardised features (the binary case is two
    classes). Fitted by L-BFGS on the penalised log-likelihood."""

    mean: np.ndarray
    scale: np.ndarray
    coefficients: np.ndarray
    """(features + 1, classes): the last row is the intercept."""

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        design = _design((features - self.mean) / self.scale)
        logits = design @ self.coefficients
        logits -= logits.max(axis=1, keepdims=True)
        exponentials = np.exp(logits)
        return exponentials / exponentials.sum(axis=1, keepdims=True)

    def as_dict(self) -> dict[str, Any]:
        return {
            "mean": self.mean.tolist(),
            "scale": self.scale.tolist(),
            "coefficients": self.coefficients.tolist(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Softmax:
        return cls(
            np.asarray(data["mean"], dtype=np.float64),
            np.asarray(data["scale"], dtype=np.float64),
            np.asarray(data["coefficients"], dtype=np.float64),
        )


def _design(standardised: np.ndarray) -> np.ndarray:
    return np.column_stack([standardised, np.ones(len(standardised))])


def fit_softmax(features: np.ndarray, targets: np.ndarray, n_classes: int, ridge: float) -> Softmax:
    """`ridge` is the L2 penalty on the standardised weights (the intercepts go free)."""
    features = np.asarray(features, dtype=np.float64)
    mean = features.mean(axis=0) if len(features) else np.zeros(features.shape[1])
    scale = features.std(axis=0) if len(features) else np.ones(features.shape[1])
    scale = np.where(scale > 1e-12, scale, 1.0)
    design = _design((features - mean) / scale)
    one_hot = np.eye(n_classes)[targets]
    n_weights = design.shape[1] * n_classes
    penalised = np.ones((design.shape[1], n_classes))
    penalised[-1] = 0.0

    def loss(flat: np.ndarray) -> tuple[float, np.ndarray]:
        weights = flat.reshape(design.shape[1], n_classes)
        logits = design @ weights
        logits -= logits.max(axis=1, keepdims=True)
        log_norm = np.log(np.exp(logits).sum(axis=1, keepdims=True))
        log_probabilities = logits - log_norm
        value = -(one_hot * log_probabilities).sum() + 0.5 * ridge * (penalised * weights**2).sum()
        gradient = design.T @ (np.exp(log_probabilities) - one_hot) + ridge * penalised * weights
        return float(value), gradient.ravel()

    result = minimize(loss, np.zeros(n_weights), jac=True, method="L-BFGS-B")
    return Softmax(mean, scale, result.x.reshape(design.shape[1], n_classes))


@dataclass(frozen=True)
class Isotonic:
    """A non-decreasing map from score to probability, from the blocks of pool adjacent
    violators: block i holds the scores from `thresholds[i]` up to the next threshold, and
    its mean outcome is `values[i]` and mean score `centres[i]`.

    As a step map (`interpolate` false) a score gets its block's value. Interpolated (the
    centred isotonic regression of Oron and Flournoy), the map passes through each block's
    (centre, value) and is linear between them, flat beyond the first and last centre: the
    values strictly increase, so the points a score tells apart stay apart instead of tying in
    wide steps, which costs the ranking (AUROC) nothing inside the centres' range."""

    thresholds: np.ndarray
    values: np.ndarray
    centres: np.ndarray
    interpolate: bool = False

    def __call__(self, scores: np.ndarray) -> np.ndarray:
        if len(self.values) == 0:
            return np.full(len(scores), 0.5)
        if self.interpolate:
            return np.interp(scores, self.centres, self.values)
        index = np.searchsorted(self.thresholds, scores, side="right") - 1
        return self.values[np.clip(index, 0, len(self.values) - 1)]

    def interpolating(self) -> Isotonic:
        return Isotonic(self.thresholds, self.values, self.centres, interpolate=True)

    def as_dict(self) -> dict[str, Any]:
        return {
            "thresholds": self.thresholds.tolist(),
            "values": self.values.tolist(),
            "centres": self.centres.tolist(),
            "interpolate": self.interpolate,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Isotonic:
        """A map stored before centres existed reads as the step map it was fitted as."""
        thresholds = np.asarray(data["thresholds"], dtype=np.float64)
        return cls(
            thresholds,
            np.asarray(data["values"], dtype=np.float64),
            np.asarray(data.get("centres", thresholds), dtype=np.float64),
            bool(data.get("interpolate", False)),
        )


def fit_isotonic(scores: np.ndarray, outcomes: np.ndarray) -> Isotonic:
    """Pool adjacent violators over the scores sorted ascending (equal scores pooled first,
    so a map is a function of the score): each block's value is its mean outcome."""
    scores = np.asarray(scores, dtype=np.float64)
    outcomes = np.asarray(outcomes, dtype=np.float64)
    if len(scores) == 0:
        return Isotonic(np.zeros(0), np.zeros(0), np.zeros(0))
    unique, inverse = np.unique(scores, return_inverse=True)
    sums = np.bincount(inverse, weights=outcomes)
    counts = np.bincount(inverse).astype(np.float64)
    score_sums = np.bincount(inverse, weights=scores)
    block_sums: list[float] = []
    block_counts: list[float] = []
    block_score_sums: list[float] = []
    block_starts: list[int] = []
    for position in range(len(unique)):
        block_sums.append(sums[position])
        block_counts.append(counts[position])
        block_score_sums.append(score_sums[position])
        block_starts.append(position)
        while (
            len(block_sums) > 1
            and block_sums[-2] / block_counts[-2] >= block_sums[-1] / block_counts[-1]
        ):
            merged_sum, merged_count = block_sums.pop(), block_counts.pop()
            merged_scores = block_score_sums.pop()
            block_sums[-1] += merged_sum
            block_counts[-1] += merged_count
            block_score_sums[-1] += merged_scores
            block_starts.pop()
    values = np.asarray(block_sums) / np.asarray(block_counts)
    centres = np.asarray(block_score_sums) / np.asarray(block_counts)
    return Isotonic(unique[np.asarray(block_starts)], values, centres)


def auroc(scores: np.ndarray, positives: np.ndarray) -> float:
    """Probability that a random positive scores above a random negative (ties count half)."""
    scores = np.asarray(scores, dtype=np.float64)
    positives = np.asarray(positives, dtype=bool)
    n_positive, n_negative = int(positives.sum()), int((~positives).sum())
    if n_positive == 0 or n_negative == 0:
        return float("nan")
    inverse = np.unique(scores, return_inverse=True)[1]
    tied = np.bincount(inverse)
    ranks = np.cumsum(tied) - (tied - 1) / 2.0
    rank_sum = ranks[inverse][positives].sum()
    return float((rank_sum - n_positive * (n_positive + 1) / 2.0) / (n_positive * n_negative))


def expected_calibration_error(
    probabilities: np.ndarray, outcomes: np.ndarray, bins: int = 10
) -> float:
    """Count-weighted mean gap between predicted and observed accuracy over equal-width bins."""
    return float(
        sum(
            row["count"] * abs(row["predicted"] - row["observed"])
            for row in reliability(probabilities, outcomes, bins)
        )
        / max(len(probabilities), 1)
    )


def reliability(
    probabilities: np.ndarray, outcomes: np.ndarray, bins: int = 10
) -> list[dict[str, float]]:
    """Per non-empty bin of predicted probability: mean prediction, observed rate, count."""
    probabilities = np.asarray(probabilities, dtype=np.float64)
    outcomes = np.asarray(outcomes, dtype=np.float64)
    index = np.clip((probabilities * bins).astype(np.int64), 0, bins - 1)
    rows = []
    for b in range(bins):
        inside = index == b
        if inside.any():
            rows.append(
                {
                    "low": b / bins,
                    "high": (b + 1) / bins,
                    "predicted": float(probabilities[inside].mean()),
                    "observed": float(outcomes[inside].mean()),
                    "count": int(inside.sum()),
                }
            )
    return rows
