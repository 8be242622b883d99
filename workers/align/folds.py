"""The two-fold protocol for public_meetings and the shipped, cross-fitted defaults.

Meetings sorted by id are split into fold A (first 11) and fold B (last 11). The parameters
shipped in defaults/tuned-on-fold-a.json were tuned on fold A only and are the ones used for
fold B meetings; defaults/tuned-on-fold-b.json, tuned on fold B only, are used for fold A. So a
reported public_meetings figure never comes from parameters that saw its meeting's scores.
Meetings from elsewhere (user uploads) get the fold-A parameters tuned with lexical vectors
(defaults/lexical-tuned-on-fold-{a,b}.json, cross-fitted the same way), which need no
training on the user's few texts.

The HMM (TalkSumm's aligner) was tuned the same way on its own grid, into
defaults/hmm-tuned-on-fold-{a,b}.json: asking for it gets those; asking for another aligner
than the shipped one gets the shipped shared settings with that aligner's defaults.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from pathlib import Path

import numpy as np

from workers.align.params import AlignmentParams, load_params
from workers.align.scoring.vectors import VectorKind

FOLD_SIZE = 11
NEW_DOCUMENT_DEFAULTS = "a"
"""The fold whose tuned parameters align documents from outside the corpus."""


def folds(meeting_ids: list[str]) -> tuple[list[str], list[str]]:
    ordered = sorted(meeting_ids)
    return ordered[:FOLD_SIZE], ordered[FOLD_SIZE:]


TUNED_SEPARATELY = ("hmm",)
"""Aligners with their own cross-fitted parameter files."""


def vectors_prefix(vectors: VectorKind) -> str:
    """How a shipped file's name says which vectors it was made with (word2vec's bare)."""
    return "lexical-" if vectors == "lexical" else ""


def defaults_file(
    tuned_on: str, aligner: str | None = None, vectors: VectorKind = "word2vec"
) -> Path:
    """The file tuned on fold `tuned_on` for `aligner`, with vectors of kind `vectors`."""
    prefix = f"{aligner}-" if aligner in TUNED_SEPARATELY else vectors_prefix(vectors)
    return Path(
        str(
            resources.files("workers.align") / "defaults" / f"{prefix}tuned-on-fold-{tuned_on}.json"
        )
    )


NEW_DOCUMENT_VECTORS: VectorKind = "lexical"
"""New documents are aligned with lexical vectors and the parameters tuned with them: a new
project has too little text to train word2vec on (`python -m bench.cold_start`: 78.6 % of
turns right over the 22 meetings aligned one at a time, against 65.7 % with vectors trained on
each meeting's own texts, and as much as word2vec trained on all 22 gives). The corpus figures
keep word2vec and its own files, above."""


def new_document_defaults(aligner: str | None = None, vectors: VectorKind | None = None) -> Path:
    """The shipped file a document from outside the corpus gets (for `aligner`, tuned with
    vectors of kind `vectors`, by default NEW_DOCUMENT_VECTORS)."""
    return defaults_file(NEW_DOCUMENT_DEFAULTS, aligner, vectors or NEW_DOCUMENT_VECTORS)


def shipped_defaults(
    meeting_id: str,
    corpus_ids: list[str],
    aligner: str | None = None,
    vectors: VectorKind = "word2vec",
) -> AlignmentParams:
    """Parameters for one meeting that were tuned without looking at that meeting (for
    `aligner`, when given, and with vectors of kind `vectors`)."""
    fold_a, _ = folds(corpus_ids)
    tuned_on = "b" if meeting_id in fold_a else NEW_DOCUMENT_DEFAULTS
    return with_aligner(load_params(defaults_file(tuned_on, aligner, vectors)), aligner)


def with_aligner(params: AlignmentParams, aligner: str | None) -> AlignmentParams:
    """`params` with `aligner` (at its defaults) unless it already is that aligner's."""
    if aligner is None or params.aligner == aligner:
        return params
    return params.with_changes({"aligner": aligner})


def cv_folds(document_ids: Sequence[str], k: int, seed: int) -> list[list[str]]:
    """`k` folds of whole documents, so a document's turns are never on both sides of a
    split: a seeded shuffle of the sorted ids dealt round-robin (fold sizes differ by at most
    one). The same ids, `k` and `seed` give the same folds on any machine."""
    ordered = sorted(set(document_ids))
    if not 2 <= k <= len(ordered):
        raise ValueError(f"--cv {k} needs between 2 and {len(ordered)} folds (one per document)")
    order = np.random.default_rng(seed).permutation(len(ordered))
    return [sorted(ordered[index] for index in order[fold::k]) for fold in range(k)]
