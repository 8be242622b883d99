"""TalkSumm's importance scores and the extractive summaries drawn from them.

A report (paper) sentence's importance is the number of spoken words the alignment assigned to
it: the time the speaker spent on it. A summary takes the most important sentences, best
first, as long as they fit its length, and gives them back in the paper's order. Sentences no
word was assigned to never enter a summary, however much room is left: the talk did not
mention them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


def importance(word_sentence: np.ndarray, n_sentences: int) -> np.ndarray:
    """Spoken words per sentence; words assigned to no sentence (-1) count for none."""
    states = np.asarray(word_sentence, dtype=np.int64)
    if len(states) and states.max(initial=-1) >= n_sentences:
        raise ValueError(f"a word is assigned to sentence {states.max()} of {n_sentences}")
    return np.bincount(states[states >= 0], minlength=n_sentences).astype(np.int64)


def ranking(scores: np.ndarray) -> list[int]:
    """Sentences with a positive score, highest first; ties in the paper's order."""
    scores = np.asarray(scores)
    candidates = np.flatnonzero(scores > 0)
    return [int(i) for i in candidates[np.lexsort((candidates, -scores[candidates]))]]


def extractive_summary(scores: np.ndarray, sentence_words: Sequence[int], budget: int) -> list[int]:
    """The longest run of top-ranked sentences whose words fit `budget`, in the paper's order.

    The run stops at the first sentence that does not fit (rather than skipping it for a
    shorter, less important one), so a summary is always a prefix of the ranking."""
    chosen, used = [], 0
    for index in ranking(scores):
        if used + sentence_words[index] > budget:
            break
        chosen.append(index)
        used += sentence_words[index]
    return sorted(chosen)


@dataclass(frozen=True)
class SummaryLengths:
    """The summaries to draw: TalkSumm's training sets used 150 and 250 words, and 0.3 and
    0.4 of the paper's words."""

    words: tuple[int, ...] = (150, 250)
    ratios: tuple[float, ...] = (0.3, 0.4)

    def __post_init__(self) -> None:
        if any(length < 0 for length in self.words):
            raise ValueError(f"summary lengths must be >= 0 words, got {self.words}")
        if any(not 0 < ratio <= 1 for ratio in self.ratios):
            raise ValueError(f"summary ratios must be in (0, 1], got {self.ratios}")

    def budgets(self, paper_words: int) -> dict[str, int]:
        """Name -> words: `150_words`, `ratio_0.3` (of `paper_words`, rounded down)."""
        return {
            **{f"{length}_words": length for length in self.words},
            **{f"ratio_{ratio:g}": int(ratio * paper_words) for ratio in self.ratios},
        }


TALKSUMM_LENGTHS = SummaryLengths()


def summaries(
    scores: np.ndarray, sentence_words: Sequence[int], lengths: SummaryLengths = TALKSUMM_LENGTHS
) -> dict[str, list[int]]:
    """Every summary of `lengths`, each as sentence indices in the paper's order; a ratio is of
    all the paper's words, sentences the talk skipped included."""
    total = int(sum(sentence_words))
    return {
        name: extractive_summary(scores, sentence_words, budget)
        for name, budget in lengths.budgets(total).items()
    }
