"""Salience labels of transcript units against a description (podcast paper, section 2.1).

The paper labels each 30-second segment positive when its ROUGE-2 recall against any one
sentence of the creator description is above tau = 0.2: a segment that says most of a
sentence's word pairs is where that sentence came from. Recall is taken with the sentence as
the reference, so a long segment is not penalised for what the short description leaves out.
Its classifier only sees the first 33 and last 7 segments (its GPU's limit, covering 81% of
the positive segments), which `candidate` marks.

`label_agreement` then says how far this cheap rule can be trusted against gold labels, a
unit aligned by annotators to some report segment being salient.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from workers.align.podcasts.rouge_recall import bigrams, rouge_tokens


@dataclass(frozen=True)
class SalienceConfig:
    tau: float = 0.2
    """A unit is salient when its best ROUGE-2 recall is strictly above this."""
    first: int = 33
    """Candidates: this many units from the start ..."""
    last: int = 7
    """... and this many from the end."""


@dataclass(frozen=True)
class UnitSalience:
    index: int
    score: float
    """The unit's best ROUGE-2 recall against one description sentence."""
    sentence: int | None
    """That sentence's position; None when no sentence shares a word pair with the unit
    (score 0), there being then no best sentence to show."""
    salient: bool
    """score > tau (strictly, as the paper)."""
    candidate: bool
    """Among the first `first` or last `last` units."""


def label_units(
    units: Sequence[str],
    description_sentences: Sequence[str],
    config: SalienceConfig = SalienceConfig(),
) -> tuple[UnitSalience, ...]:
    """Each unit's best `rouge2_recall` against the sentences (the earliest on ties).

    The sentences' bigrams are indexed once, so a unit is only compared with the sentences it
    shares a word pair with: a two-hour meeting against a long report stays quick."""
    references = [bigrams(rouge_tokens(sentence)) for sentence in description_sentences]
    totals = [sum(reference.values()) for reference in references]
    holders: dict[tuple[str, str], list[tuple[int, int]]] = defaultdict(list)
    for position, reference in enumerate(references):
        for bigram, count in reference.items():
            holders[bigram].append((position, count))
    labels = []
    for index, unit in enumerate(units):
        overlap: dict[int, int] = defaultdict(int)
        for bigram, count in bigrams(rouge_tokens(unit)).items():
            for position, wanted in holders.get(bigram, ()):
                overlap[position] += min(count, wanted)
        best: int | None = None
        score = 0.0
        for position in sorted(overlap):
            recall = overlap[position] / totals[position]
            if recall > score:
                best, score = position, recall
        labels.append(
            UnitSalience(
                index=index,
                score=score,
                sentence=best,
                salient=score > config.tau,
                candidate=is_candidate(index, len(units), config),
            )
        )
    return tuple(labels)


def is_candidate(index: int, count: int, config: SalienceConfig = SalienceConfig()) -> bool:
    """Among the first `config.first` or the last `config.last` of `count` units."""
    return index < config.first or index >= count - config.last


@dataclass(frozen=True)
class LabelAgreement:
    """The automatic labels scored against gold; a ratio is None when it divides by zero (no
    automatic positive for precision, no gold positive for recall)."""

    precision: float | None
    recall: float | None
    f1: float | None
    true_positives: int
    false_positives: int
    false_negatives: int
    true_negatives: int


def label_agreement(automatic: Sequence[bool], gold: Sequence[bool]) -> LabelAgreement:
    if len(automatic) != len(gold):
        raise ValueError(f"{len(automatic)} automatic labels against {len(gold)} gold labels")
    pairs = list(zip(automatic, gold, strict=True))
    tp = sum(1 for auto, true in pairs if auto and true)
    fp = sum(1 for auto, true in pairs if auto and not true)
    fn = sum(1 for auto, true in pairs if not auto and true)
    tn = len(pairs) - tp - fp - fn
    precision = tp / (tp + fp) if tp + fp else None
    recall = tp / (tp + fn) if tp + fn else None
    f1 = None
    if precision is not None and recall is not None:
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return LabelAgreement(precision, recall, f1, tp, fp, fn, tn)
