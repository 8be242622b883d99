"""Confidence-guided review in the bootstrap simulation: the simulated annotator reads only the
turns the review mode shows (`workers.align.annotation.review.turns_to_review` on the
pre-alignment's confidences), fixes those the corpus's alignment says are wrong, and accepts
the rest as pre-aligned, so a wrong turn it was not shown stays wrong in the gold. Per
iteration the simulation then reports the work (turns reviewed, turns changed) against what it
left (wrong labels in the gold, measured against the corpus's alignment and estimated from the
confidences as the app would)."""

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from workers.align.annotation.review import (
    CURVE_THRESHOLDS,
    DEFAULT_RESIDUAL_ERROR_TARGET,
    ROUNDING,
    ReviewedDocument,
    candidate_thresholds,
    doubts_after_review,
    expected_left,
    next_to_changes,
    threshold_for_residual_error,
    threshold_reached,
    turns_to_review,
)
from workers.align.annotation.spot_check import (
    SpotCheckedDocument,
    residual_error_spot_checked,
    spot_checked_error_sd,
)
from workers.align.report_order import first_order_break

AUTO: Literal["auto"] = "auto"
"""The threshold the app would propose to a lead aiming at DEFAULT_RESIDUAL_ERROR_TARGET,
computed on each iteration's pre-alignments."""

ReviewThreshold = float | Literal["auto"]

BAR_RESIDUAL_ERROR = 0.03
BAR_REVIEWED_SHARE = 0.40
"""The bar #39 sets confidence-guided review on public_meetings: a gold at most 3 % wrong with
at most 40 % of the turns read (on the corrected reference, where the benchmark states its
targets)."""


def meets_bar(residual_error_corrected: float, reviewed_share: float) -> bool:
    return (
        residual_error_corrected <= BAR_RESIDUAL_ERROR + ROUNDING
        and reviewed_share <= BAR_REVIEWED_SHARE + ROUNDING
    )


LEAST_REVIEW_STEPS = 40
"""Steps between the thresholds `least_review` tries, evenly spaced among those that show a
different set of turns, from none to all: its answer may show up to a 40th of the batch's
distinct confidences more than the least over every threshold would."""


@dataclass(frozen=True)
class PreAligned:
    """What the editor shows an annotator of one document before any edit."""

    labels: np.ndarray
    confidences: np.ndarray
    run_correlation: float | None = None
    """The learned decision's, as stored with the pre-alignment (`PreAlignment.run_correlation`)."""

    def following(self, follow_changes: bool) -> float | None:
        """The correlation the review's estimates count on: none when the annotator reads
        the shown turns only."""
        return self.run_correlation if follow_changes else None


def iteration_threshold(
    setting: ReviewThreshold, batch: Sequence[PreAligned], follow_changes: bool = True
) -> float:
    """The threshold the iteration's annotators review under: the one given, or with `auto`
    the lowest whose estimated residual error over the batch's pre-alignments meets the
    target, counting the runs annotators who follow changes will find."""
    if setting == AUTO:
        return threshold_for_residual_error(
            [document.confidences for document in batch],
            DEFAULT_RESIDUAL_ERROR_TARGET,
            [document.following(follow_changes) for document in batch],
        )
    return float(setting)


def _fix_shown(
    pre_aligned: PreAligned, gold: Sequence[int], threshold: float, read_before: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The shown turns, and those read before, take their `gold` label, the others keep the
    pre-aligned one. Where a fixed turn would break the report's order against a hidden one,
    the editor refuses the save and names the other turn; the annotator reads and fixes it
    too, until the document keeps the order (`gold` keeps it, so every round fixes a turn that
    was not yet gold)."""
    read = turns_to_review(pre_aligned.confidences, threshold) | read_before
    labels = np.where(read, np.asarray(gold), pre_aligned.labels).astype(np.int64)
    while (found := first_order_break(labels)) is not None:
        for turn in (found.turn, found.earlier_turn):
            if labels[turn] != gold[turn]:
                labels[turn] = gold[turn]
                read[turn] = True
    return labels, read


def reviewed_labels(
    pre_aligned: PreAligned,
    gold: Sequence[int],
    threshold: float,
    top_up: bool = False,
    follow_changes: bool = True,
) -> tuple[list[int], np.ndarray]:
    """What an annotator in review mode submits, and which turns it read: the shown turns are
    fixed to `gold` (with the turns an order break names), the others keep the pre-aligned
    label.

    - `follow_changes` (the editor's review mode): the annotator also reads the turns next to
      each turn it changed (`next_to_changes`), and next to those it changed in turn, to the
      end of each run; without it, the shown turns only, as the review mode first did;
    - `top_up` (an experiment the editor does not run,
      docs/experiments/2026-11-28-review-top-up.md): once every shown turn is read, the mode
      shows more (`threshold_reached`, where the shown turns were wrong more often than their
      confidence said), and the annotator reads those too, until it shows nothing new."""
    confidences = pre_aligned.confidences
    labels, read = _fix_shown(pre_aligned, gold, threshold, np.zeros(len(confidences), bool))
    while True:
        if follow_changes:
            labels, read = _follow_changes(pre_aligned, gold, threshold, labels, read)
        if not top_up:
            break
        reached = threshold_reached(
            confidences, read, read & (labels == pre_aligned.labels), threshold
        )
        if not (turns_to_review(confidences, reached) & ~read).any():
            break
        labels, read = _fix_shown(pre_aligned, gold, reached, read)
    return labels.tolist(), read


def _follow_changes(
    pre_aligned: PreAligned,
    gold: Sequence[int],
    threshold: float,
    labels: np.ndarray,
    read: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """The annotator reads the turns next to each turn it changed, and next to those it
    changes in turn, to the end of each run."""
    while (near := next_to_changes(read & (labels != pre_aligned.labels)) & ~read).any():
        labels, read = _fix_shown(pre_aligned, gold, threshold, read | near)
    return labels, read


def spot_checked_labels(
    pre_aligned: PreAligned,
    gold: Sequence[int],
    threshold: float,
    read: np.ndarray,
    checked: np.ndarray,
    follow_changes: bool = True,
) -> tuple[list[int], np.ndarray]:
    """What an annotator submits after a spot check (`workers.align.annotation.spot_check`)
    of a review that read the `read` turns: the `checked` turns are read and fixed to
    `gold` as the shown ones were, each change followed to the end of its run as the review
    follows them, and a fix that breaks the report's order has that turn fixed too."""
    labels_after, read_after = _fix_shown(pre_aligned, gold, threshold, read | checked)
    if follow_changes:
        labels_after, read_after = _follow_changes(
            pre_aligned, gold, threshold, labels_after, read_after
        )
    return labels_after.tolist(), read_after


def shown_after_review(
    pre_aligned: PreAligned, labels: Sequence[int], read: np.ndarray, threshold: float
) -> np.ndarray:
    """The turns a review under `threshold` with the top-up showed by its end, as its outcome
    gives them (`threshold_reached`)."""
    kept = read & (np.asarray(labels) == pre_aligned.labels)
    reached = threshold_reached(pre_aligned.confidences, read, kept, threshold)
    return turns_to_review(pre_aligned.confidences, reached)


@dataclass
class ReviewTally:
    """One iteration's review figures, pooled over its documents' turns."""

    threshold: float | None
    """None when annotators read every turn (no review mode)."""
    top_up: bool = False
    """Whether annotators read on where the shown turns proved wrong (`reviewed_labels`)."""
    follow_changes: bool = True
    """Whether annotators read the turns next to those they changed (`reviewed_labels`)."""
    turns: int = 0
    reviewed: int = 0
    changed: int = 0
    wrong_left: int = 0
    expected_wrong_left: float = 0.0
    pre_aligned_wrong: int = 0
    trusted_turns: int = 0
    """Turns whose reference is the annotators' work (`corrected_turns`), and below, what was
    left wrong on them, measured and expected: where the benchmark states its targets."""
    trusted_wrong_left: int = 0
    trusted_expected_wrong_left: float = 0.0
    _read: dict[str, np.ndarray] = field(default_factory=dict)
    _documents: list[tuple[PreAligned, Sequence[int], np.ndarray]] = field(default_factory=list)
    """Each document's pre-alignment, reference and trusted turns."""
    _reviewed: list[tuple[ReviewedDocument, np.ndarray]] = field(default_factory=list)
    """Each document as its review left it, with its trusted turns."""
    _spot_checks: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = field(default_factory=dict)
    """Per spot-checked document, the turns unread when the check was drawn, the turns drawn,
    and the labels before the check."""
    _spot_checked: list[tuple[SpotCheckedDocument, np.ndarray]] = field(default_factory=list)
    """Each spot-checked document's check as its gold left it, with its trusted turns."""

    def note_read(self, document: str, read: np.ndarray) -> None:
        """Turns an annotator of `document` read (with two annotators, either of them)."""
        before = self._read.get(document)
        self._read[document] = read if before is None else before | read

    def note_spot_check(
        self, document: str, pool: np.ndarray, checked: np.ndarray, labels_before: Sequence[int]
    ) -> None:
        """A spot check of `document` drew `checked` among the `pool` of turns its review left
        unread, whose labels were then `labels_before` (with two annotators, the same draw)."""
        self._spot_checks[document] = (pool, checked, np.asarray(labels_before))

    def add_document(
        self,
        document: str,
        pre_aligned: PreAligned,
        gold: Sequence[int],
        reference: Sequence[int],
        trusted: np.ndarray | None = None,
    ) -> None:
        """Counts a document once its gold is decided; `reference` is the corpus's alignment
        as an annotator can enter it, what reading every turn would have made the gold, and
        `trusted` its turns that annotators corrected (all by default)."""
        n_turns = len(gold)
        read = self._read.get(document, np.ones(n_turns, dtype=bool))
        if self.threshold is None:
            planned = shown = np.ones(n_turns, dtype=bool)
        else:
            planned = turns_to_review(pre_aligned.confidences, self.threshold)
            shown = (
                shown_after_review(pre_aligned, gold, read, self.threshold)
                if self.top_up
                else planned
            )
        gold_labels = np.asarray(gold)
        reference_labels = np.asarray(reference)
        self.turns += n_turns
        self.reviewed += int(read.sum())
        self.changed += int((gold_labels != pre_aligned.labels).sum())
        wrong = gold_labels != reference_labels
        self.wrong_left += int(wrong.sum())
        following = pre_aligned.following(self.follow_changes)
        self.expected_wrong_left += expected_left(pre_aligned.confidences, planned, following)
        trusted = np.ones(n_turns, dtype=bool) if trusted is None else trusted
        self.trusted_turns += int(trusted.sum())
        self.trusted_wrong_left += int(wrong[trusted].sum())
        self.trusted_expected_wrong_left += expected_left(
            pre_aligned.confidences[trusted], planned[trusted], following
        )
        self.pre_aligned_wrong += int((pre_aligned.labels != reference_labels).sum())
        self._documents.append((pre_aligned, reference, trusted))
        kept = gold_labels == pre_aligned.labels
        self._reviewed.append(
            (ReviewedDocument(pre_aligned.confidences, shown, read, kept, following), trusted)
        )
        if document in self._spot_checks:
            pool, checked, before = self._spot_checks[document]
            check = SpotCheckedDocument.from_labels(
                pool, checked, before, gold_labels, pre_aligned.confidences
            )
            self._spot_checked.append((check, trusted))

    def summary(self) -> str:
        figures = self.figures()
        if not self.turns:
            return "no turns"
        mode = (
            "read every turn"
            if self.threshold is None
            else f"reviewed {figures['reviewed_share']:.1%} of turns "
            f"(threshold {self.threshold:.3f})"
        )
        return (
            f"{mode}, changed {figures['changed_share']:.1%}; wrong labels left in the gold "
            f"{figures['residual_error']:.1%} "
            f"(estimated {figures['estimated_residual_error']:.1%}, "
            f"after review {figures['estimated_residual_error_after_review']:.1%}); "
            f"pre-alignment accuracy {figures['pre_alignment_accuracy']:.1%}"
        )

    def as_dict(self) -> dict[str, Any]:
        """The figures, and the curve: what annotators who review under each of
        CURVE_THRESHOLDS and `auto`'s threshold, fixing every shown turn, would have reviewed
        and left wrong on this iteration's pre-alignments."""
        batch = [pre_aligned for pre_aligned, _, _ in self._documents]
        automatic = iteration_threshold(AUTO, batch, self.follow_changes)
        curve = [
            {
                "auto": threshold == automatic,
                **review_under(self._documents, threshold, self.top_up, self.follow_changes),
            }
            for threshold in sorted({*CURVE_THRESHOLDS, automatic})
        ]
        return {
            **self.figures(),
            "review_curve": curve,
            "least_review": least_review(self._documents, self.top_up, self.follow_changes),
        }

    def figures(self) -> dict[str, Any]:
        def share(count: float, turns: int | None = None) -> float | None:
            turns = self.turns if turns is None else turns
            return count / turns if turns else None

        accuracy = share(self.turns - self.pre_aligned_wrong)
        after_review, after_review_trusted = self._expected_wrong_after_review()
        checks = [check for check, _ in self._spot_checked]
        trusted_checks = [check.only(trusted) for check, trusted in self._spot_checked]
        return {
            "review_threshold": self.threshold,
            "reviewed_share": share(self.reviewed),
            "changed_share": share(self.changed),
            "residual_error": share(self.wrong_left),
            "estimated_residual_error": share(self.expected_wrong_left),
            "residual_error_corrected": share(self.trusted_wrong_left, self.trusted_turns),
            "estimated_residual_error_corrected": share(
                self.trusted_expected_wrong_left, self.trusted_turns
            ),
            "estimated_residual_error_after_review": share(after_review),
            "estimated_residual_error_after_review_corrected": share(
                after_review_trusted, self.trusted_turns
            ),
            "spot_checked_share": share(sum(int(d.checked.sum()) for d in checks)),
            "estimated_residual_error_spot_checked": residual_error_spot_checked(
                after_review, self.turns, checks
            )
            if checks
            else None,
            "estimated_residual_error_spot_checked_corrected": residual_error_spot_checked(
                after_review_trusted, self.trusted_turns, trusted_checks
            )
            if checks
            else None,
            "spot_checked_error_sd": spot_checked_error_sd(self.turns, checks) if checks else None,
            "spot_checked_error_sd_corrected": spot_checked_error_sd(
                self.trusted_turns, trusted_checks
            )
            if checks
            else None,
            "pre_alignment_accuracy": accuracy,
        }

    def _expected_wrong_after_review(self) -> tuple[float, float]:
        """Expected wrong labels left, from what the review found (`doubts_after_review`), over
        all turns and over the trusted ones; for the latter the review's outcome is read on
        trusted turns only, as an annotator's judgement of the others would repeat the
        uncorrected reference. Nothing is left to estimate when every turn was read."""
        if self.threshold is None:
            return 0.0, 0.0
        documents = [document for document, _ in self._reviewed]
        trusted_only = [
            ReviewedDocument(d.confidences[t], d.shown[t], d.read[t], d.kept[t], d.run_correlation)
            for d, t in self._reviewed
        ]
        return (
            float(sum(doubts.sum() for doubts in doubts_after_review(documents))),
            float(sum(doubts.sum() for doubts in doubts_after_review(trusted_only))),
        )


def review_under(
    documents: Sequence[tuple[PreAligned, Sequence[int], np.ndarray]],
    threshold: float,
    top_up: bool = False,
    follow_changes: bool = True,
) -> dict[str, Any]:
    """The figures of annotators who review each pre-alignment under `threshold` (reading on
    as `top_up` and `follow_changes` say) and fix the shown turns to the `reference` paired
    with it (and its trusted turns)."""
    tally = ReviewTally(threshold=threshold, top_up=top_up, follow_changes=follow_changes)
    for number, (pre_aligned, reference, trusted) in enumerate(documents):
        gold, read = reviewed_labels(pre_aligned, reference, threshold, top_up, follow_changes)
        tally.note_read(str(number), read)
        tally.add_document(str(number), pre_aligned, gold, reference, trusted)
    return tally.figures()


def least_review(
    documents: Sequence[tuple[PreAligned, Sequence[int], np.ndarray]],
    top_up: bool = False,
    follow_changes: bool = True,
) -> dict[str, Any] | None:
    """The review that reads the fewest turns and leaves at most BAR_RESIDUAL_ERROR wrong on
    the corrected reference, among LEAST_REVIEW_STEPS + 1 thresholds: the threshold a lead who
    knew the reference would set. It measures how far the review mode's order reaches apart
    from how well `auto`'s estimate aims; `meets_bar` says whether it reads at most
    BAR_REVIEWED_SHARE. None for no documents."""
    if not documents:
        return None
    candidates = candidate_thresholds([pre_aligned.confidences for pre_aligned, _, _ in documents])
    picked = np.unique(np.linspace(0, len(candidates) - 1, LEAST_REVIEW_STEPS + 1).round())
    reaching = []
    for threshold in candidates[picked.astype(np.int64)]:
        figures = review_under(documents, float(threshold), top_up, follow_changes)
        if figures["residual_error_corrected"] <= BAR_RESIDUAL_ERROR + ROUNDING:
            reaching.append(figures)
    least = min(reaching, key=lambda figures: figures["reviewed_share"])
    return {
        name: least[name]
        for name in ("review_threshold", "reviewed_share", "residual_error_corrected")
    } | {"meets_bar": meets_bar(least["residual_error_corrected"], least["reviewed_share"])}
