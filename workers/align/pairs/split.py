"""Which split a meeting's pairs go to: all pairs of one meeting share a split, so no
meeting leaks from training into evaluation.

A meeting's split depends only on its own key, the seed and the ratios (a hash mapped to
[0, 1)), never on the other meetings: adding documents to a project never moves an earlier
meeting to another split, so a model trained on one export can be evaluated on the test
split of a later one. The price is that small projects get approximate proportions; the
preview shows the counts, and another seed gives another draw.
"""

import hashlib
from typing import Literal

Split = Literal["train", "validation", "test"]
SPLITS: tuple[Split, ...] = ("train", "validation", "test")


def split_of(meeting: str, *, seed: str, valid_ratio: float, test_ratio: float) -> Split:
    digest = hashlib.sha256(f"{seed}\n{meeting}".encode()).digest()
    draw = int.from_bytes(digest[:8], "big") / 2**64
    if draw < test_ratio:
        return "test"
    if draw < test_ratio + valid_ratio:
        return "validation"
    return "train"
