"""Moving calibrated confidences by one shift of their logits, fitted on turns whose outcome
is known: how the review re-reads a calibration that is off on a batch
(`workers.align.annotation.review`), and how the runs of wrong labels are measured apart
from it (`workers.align.annotation.error_runs`)."""

from __future__ import annotations

import numpy as np

CONFIDENCE_FLOOR = 1e-4
"""How close to 0 or 1 a calibrated probability is taken to be: isotonic maps fitted on a few
thousand turns output 1.0 for their top bin, which no evidence could then move."""
UNBOUNDED_REACH = 40.0
"""How far a shift without a prior may go: past the floor's logits (about ±9.2) by enough to
put every turn within 1e-13 of 0 or 1, where a document whose turns were all right or all
wrong sends it."""


def logit(probabilities: np.ndarray) -> np.ndarray:
    clipped = np.clip(np.asarray(probabilities, np.float64), CONFIDENCE_FLOOR, 1 - CONFIDENCE_FLOOR)
    return np.log(clipped / (1.0 - clipped))


def sigmoid(values: np.ndarray) -> np.ndarray:
    """1 / (1 + exp(-values)), without overflow for large negative values."""
    return np.exp(-np.logaddexp(0.0, -np.asarray(values, np.float64)))


def fit_logit_shift(
    logits: np.ndarray, kept: np.ndarray, prior_mean: float, precision: float
) -> float:
    """The maximum a posteriori shift `a` such that sigmoid(logits + a) is the probability of
    each read turn being kept, under a normal prior (prior_mean, 1 / precision); with a
    precision of 0, the shift under which the turns' expected number kept is the number kept.

    The log posterior is strictly concave in `a`, so its derivative
    sum(kept - sigmoid(logits + a)) - precision * (a - prior_mean) falls monotonically and the
    root is found by bisection; with no read turn it is the prior mean."""
    logits = np.asarray(logits, np.float64)
    kept_count = float(np.asarray(kept, bool).sum())

    def slope(shift: float) -> float:
        return kept_count - float(sigmoid(logits + shift).sum()) - precision * (shift - prior_mean)

    # The slope is positive below prior_mean - n/precision and negative above prior_mean +
    # n/precision (each sigmoid lies in (0, 1)), so the root lies between.
    reach = len(logits) / precision + 1.0 if precision > 0 else UNBOUNDED_REACH
    low, high = prior_mean - reach, prior_mean + reach
    for _ in range(100):
        middle = 0.5 * (low + high)
        if slope(middle) > 0:
            low = middle
        else:
            high = middle
    return 0.5 * (low + high)
