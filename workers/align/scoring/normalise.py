"""Score normalisation before the dynamic programme.

Raw cosines differ in level from one transcript sentence to another (long sentences and
generic ones are close to everything); z-scoring each row and/or column turns "similar" into
"more similar than this sentence usually is", which is what the path should follow.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

Normalisation = Literal["none", "rows", "columns", "both"]


def _standardise(scores: np.ndarray, axis: int) -> np.ndarray:
    mean = scores.mean(axis=axis, keepdims=True, dtype=np.float64)
    spread = scores.std(axis=axis, keepdims=True, dtype=np.float64)
    spread[spread == 0] = 1.0
    return ((scores - mean) / spread).astype(np.float32)


def normalise(scores: np.ndarray, normalisation: Normalisation) -> np.ndarray:
    if scores.size == 0 or normalisation == "none":
        return scores
    if normalisation == "rows":
        return _standardise(scores, axis=1)
    if normalisation == "columns":
        return _standardise(scores, axis=0)
    if normalisation == "both":
        return (_standardise(scores, axis=1) + _standardise(scores, axis=0)) / np.float32(2.0)
    raise ValueError(f"unknown normalisation {normalisation!r}")


def signed_power(scores: np.ndarray, power: float) -> np.ndarray:
    """S**p that keeps the sign, so the paper's p > 1 sharpening also works on z-scores."""
    if power == 1.0:
        return scores
    return (np.sign(scores) * np.abs(scores) ** np.float32(power)).astype(np.float32)
