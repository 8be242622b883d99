"""Salience labels of units against description sentences, and their agreement with gold."""

from __future__ import annotations

from pathlib import Path

import pytest

from workers.align.corpus import load_public_meetings
from workers.align.podcasts.rouge_recall import rouge2_recall, rouge_tokens
from workers.align.podcasts.salience import SalienceConfig, label_agreement, label_units
from workers.align.podcasts.time_windows import window_transcript
from workers.align.readers import read_transcript

SMALL_MEETING = "0b9ec6f049e68d4a35fae75792e2a84e"


def test_each_window_gets_its_best_recall_against_one_report_sentence() -> None:
    public_meetings = pytest.importorskip("public_meetings")
    transcript = read_transcript(Path(public_meetings.data_root) / f"{SMALL_MEETING}.0.ctm")
    units = [turn.text for turn in window_transcript(transcript).turns]
    (meeting,) = load_public_meetings([SMALL_MEETING])
    sentences = [s for segment in meeting.report.segments for s in segment.sentences]
    labels = label_units(units, sentences)
    assert [label.index for label in labels] == list(range(len(units)))
    for unit, label in zip(units, labels, strict=True):
        scores = [rouge2_recall(rouge_tokens(unit), rouge_tokens(s)) for s in sentences]
        assert label.score == pytest.approx(max(scores))
        if label.score > 0:
            assert label.sentence == scores.index(max(scores))
        else:
            assert label.sentence is None
        assert label.salient == (label.score > 0.2)
    assert any(label.salient for label in labels)
    assert len({label.sentence for label in labels}) > len(labels) / 2


def test_salient_means_strictly_above_tau() -> None:
    sentence = "one two three four five six"  # five bigrams
    units = ["one two", "one two three", "nothing here"]
    labels = label_units(units, [sentence], SalienceConfig(tau=0.2))
    assert [label.score for label in labels] == [0.2, 0.4, 0.0]
    assert [label.salient for label in labels] == [False, True, False]
    assert [label.sentence for label in labels] == [0, 0, None]


def test_the_earliest_sentence_wins_a_tie_and_no_sentence_means_no_label() -> None:
    (label,) = label_units(["a b c d"], ["x a b", "a b", "c d"])
    assert (label.score, label.sentence) == (1.0, 1)
    (alone,) = label_units(["a b c d"], [])
    assert (alone.score, alone.sentence, alone.salient) == (0.0, None, False)


def test_candidates_are_the_first_and_last_units() -> None:
    labels = label_units([f"unit {i}" for i in range(50)], ["unit 3"])
    candidates = [label.index for label in labels if label.candidate]
    assert candidates == [*range(33), *range(43, 50)]
    short = label_units(["a b"] * 12, ["a b"], SalienceConfig(first=3, last=2))
    assert [label.candidate for label in short] == [True] * 3 + [False] * 7 + [True] * 2
    assert all(label.candidate for label in label_units(["a b"] * 40, ["a b"]))


def test_label_agreement_counts_and_ratios() -> None:
    agreement = label_agreement(
        [True, True, False, False, True, False], [True, False, True, False, True, False]
    )
    assert (
        agreement.true_positives,
        agreement.false_positives,
        agreement.false_negatives,
        agreement.true_negatives,
    ) == (2, 1, 1, 2)
    assert agreement.precision == pytest.approx(2 / 3)
    assert agreement.recall == pytest.approx(2 / 3)
    assert agreement.f1 == pytest.approx(2 / 3)


def test_label_agreement_says_none_where_a_ratio_divides_by_zero() -> None:
    nothing_predicted = label_agreement([False, False], [True, False])
    assert (nothing_predicted.precision, nothing_predicted.recall) == (None, 0.0)
    assert nothing_predicted.f1 is None
    no_gold = label_agreement([True, False], [False, False])
    assert (no_gold.precision, no_gold.recall, no_gold.f1) == (0.0, None, None)
    all_wrong = label_agreement([True, False], [False, True])
    assert (all_wrong.precision, all_wrong.recall, all_wrong.f1) == (0.0, 0.0, 0.0)
    with pytest.raises(ValueError, match="3 automatic labels against 2 gold labels"):
        label_agreement([True, True, False], [True, False])
