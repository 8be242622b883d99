"""ROUGE-2 recall as the standard definition (Lin, 2004) and `rouge-score` compute it.

Tokens are lower-cased runs of letters and digits. On ASCII text that is exactly
`rouge-score`'s default tokenizer (which keeps only `[a-z0-9]`); on French or any other
accented text it keeps "problématiques" one word where `rouge-score` would cut it at the "é".
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from itertools import pairwise

_WORD = re.compile(r"[^\W_]+")


def rouge_tokens(text: str) -> tuple[str, ...]:
    """Lower-cased Unicode letter-and-digit runs; punctuation and markup symbols separate
    words, so "l' année" and "l'année" both give ("l", "année")."""
    return tuple(_WORD.findall(text.lower()))


def bigrams(tokens: Sequence[str]) -> Counter[tuple[str, str]]:
    return Counter(pairwise(tokens))


def rouge2_recall(candidate: Sequence[str], reference: Sequence[str]) -> float:
    """Clipped bigram overlap / bigrams of the reference (0.0 when reference has < 2 tokens).

    A bigram the candidate repeats counts at most as often as the reference has it, so a unit
    cannot reach a description sentence by saying one phrase many times."""
    wanted = bigrams(reference)
    total = sum(wanted.values())
    if not total:
        return 0.0
    found = bigrams(candidate)
    return sum(min(count, found[bigram]) for bigram, count in wanted.items()) / total
