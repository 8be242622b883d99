"""A spot check after review: a few of the turns left unread, drawn at random and read, so that
the residual error of the gold is measured on the batch itself, not only inferred from a
calibration fitted on other documents.

The estimate after review (`workers.align.annotation.review.residual_error_after_review`)
reads the shown turns, which all lie below the threshold, and extrapolates to the hidden ones
above it; on public_meetings a calibration from other documents misses a batch of four or six
by about a point, and the shown turns cannot tell in which direction above the threshold
(docs/experiments/2026-11-28-estimate-after-review.md). A simple random sample of the turns
still unread once the review is done is evidence from exactly where the errors left are.

Once the sample is read (and its wrong turns fixed, with the runs they lead to), the wrong
labels left number the pool's wrong turns less those fixed since the draw. The sample's share
of wrong turns times the pool's size estimates the former without bias, whatever runs the
errors come in, and the latter is counted, so `spot_check_estimate` is unbiased for what is
left (`tests/align/annotation/test_spot_check.py` checks it over every sample of small
pools). It is noisy on a small sample, so `residual_error_spot_checked` weighs it against the
model's estimate by their variances: a small sample moves the model's figure, a large one
replaces it.

Everything is numpy on one document's per-turn arrays, pooled over a batch's documents.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

SPOT_CHECK_SHARE = 0.05
"""The share of the turns left unread that a spot check reads, where none is asked for
(`bench.after_review`). Chosen on fold A's first batches among 3, 5 and 10 %
(docs/experiments/2026-11-29-spot-check.md): 5 % reads 3.6 points more of a batch than the
review alone and puts the estimate within 1 point of the error left in 75.5 and 85.0 % of
batches of 4 and 6, against 59.5 and 76.5 % after review; 3 % left 72.5 % of batches of 4
within a point, and 10 % read 7 points more."""
MODEL_ERROR_SD = 0.01
"""How far, as a share of a batch's turns, the estimate from the calibration alone typically
misses the error left on a batch of four documents or more: about a point on batches of four
or six public_meetings meetings (docs/experiments/2026-11-28-estimate-after-review.md), set
from that before the spot check was measured and not searched. It is the model estimate's
weight against the sample's."""
LONE_DOCUMENT_MODEL_ERROR_SD = 0.02
"""The same for a batch of one document. A document's calibration errs on its own, and a
batch's errors partly cancel: on fold A's meetings taken one at a time the estimate after review
missed by 1.9 points (root mean square; 1.1 and 0.8 on batches of four and six), set from that
and checked on fold B's (docs/review.md, is the stated spread right)."""


def model_error_sd(documents: int) -> float:
    """The model estimate's standard deviation on a batch of `documents` documents:
    LONE_DOCUMENT_MODEL_ERROR_SD shrinking as errors that are each document's own cancel
    (over the square root of their number), never below MODEL_ERROR_SD."""
    return max(MODEL_ERROR_SD, LONE_DOCUMENT_MODEL_ERROR_SD / float(np.sqrt(max(documents, 1))))


@dataclass(frozen=True)
class SpotCheckedDocument:
    """One document's spot check: `pool` the turns still unread when it was drawn, `checked`
    the turns drawn (a simple random sample of the pool), `fixed` the pool's turns whose label
    was changed since the draw (the checked turns found wrong, the turns read by following
    them, and any a fix put out of the report's order), and `doubts` every turn's probability
    of being wrong by the model, which stands in for the sample's share of wrong turns in its
    variance when the sample finds too few to tell. All (turns,)."""

    pool: np.ndarray
    checked: np.ndarray
    fixed: np.ndarray
    doubts: np.ndarray

    @classmethod
    def from_labels(
        cls,
        pool: np.ndarray,
        checked: np.ndarray,
        labels_before: np.ndarray,
        labels_after: np.ndarray,
        confidences: np.ndarray,
    ) -> SpotCheckedDocument:
        """The check of a document whose labels were `labels_before` at the draw and
        `labels_after` once the check was done, pre-aligned with `confidences`."""
        fixed = np.asarray(pool, bool) & (np.asarray(labels_after) != np.asarray(labels_before))
        return cls(pool, checked, fixed, 1.0 - np.asarray(confidences, np.float64))

    def only(self, turns: np.ndarray) -> SpotCheckedDocument:
        """The same check restricted to `turns` (a bool mask), such as the trusted ones."""
        return SpotCheckedDocument(
            self.pool[turns], self.checked[turns], self.fixed[turns], self.doubts[turns]
        )


def spot_check_size(unread: int, share: float) -> int:
    """How many of `unread` turns a spot check of `share` draws: rounded up, so that any share
    of a pool draws at least one turn."""
    return min(unread, int(np.ceil(share * unread)))


def draw_spot_checks(unread: np.ndarray, share: float, rng: np.random.Generator) -> np.ndarray:
    """Bool mask of `spot_check_size` of the `unread` turns, drawn at random without
    replacement. unread: (turns,) bool."""
    pool = np.flatnonzero(np.asarray(unread, bool))
    count = spot_check_size(len(pool), share)
    checked = np.zeros(len(unread), dtype=bool)
    checked[rng.choice(pool, count, replace=False)] = True
    return checked


def sample_count_variance(size: int, drawn: int, share_wrong: float) -> float:
    """The variance of `size` x (the share of wrong turns in a simple random sample of `drawn`
    turns) when `share_wrong` of the `size` turns are wrong: drawn without replacement, so a
    sample of the whole pool has none."""
    if drawn == 0 or size <= 1:
        return 0.0
    return size**2 * share_wrong * (1.0 - share_wrong) / drawn * (size - drawn) / (size - 1)


@dataclass(frozen=True)
class SpotCheckPrecision:
    """What a spot check of `share` of a batch's unread turns would draw, and how far the
    estimate may then miss the residual error: `model_error_sd`, the model's alone (that of
    the batch's documents), and `combined_error_sd`, once weighed with the sample's as
    `residual_error_spot_checked` weighs them; standard deviations, as shares of the batch's
    turns. It is the arithmetic behind choosing a share: a check of a few percent narrows a
    point to about 0.8, and only a large one brings it under half a point
    (docs/review.md#how-close-it-can-come-the-sample-against-the-model)."""

    share: float
    turns_drawn: int
    model_error_sd: float
    combined_error_sd: float


def spot_check_precision(
    *, documents: int, turns: int, unread: int, expected_wrong: float, share: float
) -> SpotCheckPrecision:
    """The precision of a spot check of `share` of the `unread` turns of a batch of `documents`
    and `turns` whose model expects `expected_wrong` wrong labels among them: the sample's
    variance is taken at that expected share of wrong turns, as `spot_check_estimate` takes it
    when the sample finds fewer. A check that draws nothing leaves the model's precision; one
    that reads the whole pool leaves no doubt."""
    if not 0 <= unread <= turns or not 0 < share <= 1 or expected_wrong < 0:
        raise ValueError(
            f"need 0 <= unread ({unread}) <= turns ({turns}), a share in (0, 1] ({share}) "
            f"and expected wrong labels >= 0 ({expected_wrong})"
        )
    drawn = spot_check_size(unread, share)
    model_sd = model_error_sd(documents) if turns else 0.0
    if drawn == 0:
        return SpotCheckPrecision(share, 0, model_sd, model_sd)
    sample_variance = sample_count_variance(unread, drawn, min(1.0, expected_wrong / unread))
    model_variance = _model_variance(documents, turns)
    combined_sd = float(np.sqrt(_weighed_variance(model_variance, sample_variance)))
    return SpotCheckPrecision(share, drawn, model_sd, combined_sd / turns)


def spot_check_estimate(document: SpotCheckedDocument) -> tuple[float, float]:
    """The expected number of wrong labels left in the document, from its spot check alone,
    and that estimate's variance: the pool's size times the sample's share of wrong turns,
    less the pool turns fixed since the draw. The variance is the sample's
    (`sample_count_variance`) at the larger of the sample's share and the model's mean doubt
    over the pool, so that a sample that found nothing wrong is not taken for certain.
    (0, 0) when nothing was drawn."""
    pool = np.asarray(document.pool, bool)
    checked = np.asarray(document.checked, bool) & pool
    fixed = np.asarray(document.fixed, bool) & pool
    size, drawn = int(pool.sum()), int(checked.sum())
    if drawn == 0:
        return 0.0, 0.0
    share_wrong = int((checked & fixed).sum()) / drawn
    estimate = size * share_wrong - int(fixed.sum())
    rate = max(share_wrong, float(np.asarray(document.doubts, np.float64)[pool].mean()))
    return estimate, sample_count_variance(size, drawn, rate)


def _model_variance(documents: int, turns: int) -> float:
    return (model_error_sd(documents) * turns) ** 2


def _weighed_variance(model_variance: float, sample_variance: float) -> float:
    """The variance of the inverse-variance mean of two independent estimates."""
    return model_variance * sample_variance / (model_variance + sample_variance)


def _sample_figure(documents: Sequence[SpotCheckedDocument]) -> tuple[float, float] | None:
    """The spot checks' estimate of the wrong labels left over `documents`, and its variance;
    None where no document drew a turn."""
    if not any(np.asarray(document.checked, bool).any() for document in documents):
        return None
    estimates = [spot_check_estimate(document) for document in documents]
    return sum(estimate for estimate, _ in estimates), sum(variance for _, variance in estimates)


def residual_error_spot_checked(
    model_expected_wrong: float, turns: int, documents: Sequence[SpotCheckedDocument]
) -> float:
    """Expected share of the batch's `turns` left wrong: the model's expected number of wrong
    labels (`model_expected_wrong`, after the spot check's reading) and the spot checks'
    estimate, each weighed by the inverse of its variance (the model's: `model_error_sd` of the
    turns), and never below 0. The model's figure alone when no document was spot checked.

    `documents` are every document of the batch, each spot-checked (a document whose review
    read every turn has an empty pool): the two figures must count the same turns."""
    if turns == 0:
        return 0.0
    sample = _sample_figure(documents)
    if sample is None:
        return model_expected_wrong / turns
    estimate, sample_variance = sample
    model_variance = _model_variance(len(documents), turns)
    weight = model_variance / (model_variance + sample_variance)
    combined = weight * estimate + (1.0 - weight) * model_expected_wrong
    return max(combined, 0.0) / turns


def spot_checked_error_sd(turns: int, documents: Sequence[SpotCheckedDocument]) -> float:
    """How far `residual_error_spot_checked` may miss the share of the batch's `turns` left
    wrong, as a standard deviation: that of the weighed mean of the model's figure and the
    spot checks', or the model's alone (`model_error_sd`) where no document was spot checked
    (docs/review.md, is the stated spread right)."""
    if turns == 0:
        return 0.0
    sample = _sample_figure(documents)
    if sample is None:
        return model_error_sd(len(documents))
    model_variance = _model_variance(len(documents), turns)
    return float(np.sqrt(_weighed_variance(model_variance, sample[1]))) / turns
