"""A learned decision before a project has the gold to fit its own.

A project's learned decision needs `MIN_GOLD_DOCUMENTS` gold documents, so the pre-alignments
of its first iterations would carry the engine's own confidence, a score well below the share
of turns it gets right: a lead aiming review at a residual error reads far more than needed
(docs/review.md). The corpus's gold can stand in until then. The shipped prior is fitted like
a tuning run's decision on one fold of public_meetings with the parameters tuned on that fold,
one per kind of vectors, as each kind's evidence sits on its own scale:
defaults/prior-calibration-fitted-on-fold-{a,b}.json for word vectors trained on the texts
(a tuned project's), defaults/lexical-prior-calibration-fitted-on-fold-{a,b}.json for lexical
vectors (a new project's, and a researcher's first pair's, first alignment). The word2vec prior
is a calibration only; the lexical one also corrects labels (`PRIOR_CORRECTIONS`). As with the
shipped parameters (`folds`), a corpus meeting gets the prior fitted on the other fold, so no
figure measured on a meeting comes from a decision that saw it; any other document gets fold
A's.

    python -m workers.align.learning.prior [--vectors lexical]

refits the files (a few minutes: each fold's meetings aligned once, with second opinions).
"""

from __future__ import annotations

import argparse
import json
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np

from workers.align.corpus import (
    corrected_turns,
    load_public_meetings,
    meeting_ids,
    meeting_of_source,
)
from workers.align.folds import NEW_DOCUMENT_DEFAULTS, defaults_file, folds, vectors_prefix
from workers.align.learning.turn_decision import LearnedDecision, fit_calibration, fit_decision
from workers.align.params import AlignmentParams, load_params
from workers.align.paths.turn_dp import TurnSettings
from workers.align.pipeline import corpus_vectors, turn_evidence
from workers.align.scoring.vectors import VectorKind

FOLDS = ("a", "b")
PRIOR_VECTORS: tuple[VectorKind, ...] = ("word2vec", "lexical")
PRIOR_CORRECTIONS: frozenset[VectorKind] = frozenset({"lexical"})
"""The priors that correct labels as well as calibrate them. The lexical prior meets the
parameters it was fitted with (every new document gets the shipped lexical defaults, and both
folds tuned the same settings), so corrections learned from the corpus's gold read evidence
like their training's: cross-fitted, they put 3.1 more points of one-document projects' turns
right (docs/align-engine.md, First contact). The word2vec prior meets parameters a project
tuned on its first few gold documents, not the ones it was fitted with, so it only
calibrates and never changes a label they give."""


def prior_file(fitted_on: str, vectors: VectorKind = "word2vec") -> Path:
    """The prior fitted on fold `fitted_on`'s gold, for vectors of kind `vectors`."""
    name = f"{vectors_prefix(vectors)}prior-calibration-fitted-on-fold-{fitted_on}.json"
    return Path(str(resources.files("workers.align") / "defaults" / name))


def prior_fold(meeting_id: str | None, corpus_ids: list[str]) -> str:
    """The fold whose prior a document gets: the other fold for a corpus meeting, else the
    fold whose parameters new documents get."""
    fold_a, fold_b = folds(corpus_ids)
    if meeting_id in fold_a:
        return "b"
    if meeting_id in fold_b:
        return "a"
    return NEW_DOCUMENT_DEFAULTS


def prior_vectors(params: AlignmentParams) -> VectorKind | None:
    """The kind of vectors whose prior can calibrate pre-alignments made with `params`, if
    any: the turn path (whose evidence it reads) scored as that prior's own parameters score,
    since per-word evidence from other scoring (tf-idf, other vectors) sits on another scale."""
    if not isinstance(params.path, TurnSettings):
        return None
    for kind, (method, vectors_kind) in _prior_scoring().items():
        if params.scoring.method == method and params.vectors.kind == vectors_kind:
            return kind
    return None


@cache
def _prior_scoring() -> dict[VectorKind, tuple[str, str]]:
    """Per prior, the scoring method and vectors of the parameters it was fitted with: read
    once a process, as a pre-alignment job asks per document."""
    fitted_with = {
        kind: load_params(defaults_file(NEW_DOCUMENT_DEFAULTS, vectors=kind))
        for kind in PRIOR_VECTORS
    }
    return {
        kind: (params.scoring.method, params.vectors.kind) for kind, params in fitted_with.items()
    }


@cache
def load_prior(fitted_on: str, vectors: VectorKind = "word2vec") -> LearnedDecision:
    """Read once a process: a pre-alignment job asks for a prior per document."""
    stored = json.loads(prior_file(fitted_on, vectors).read_text(encoding="utf-8"))
    return LearnedDecision.from_dict(stored["learned"])


def prior_for(
    meeting_id: str | None, corpus_ids: list[str], vectors: VectorKind = "word2vec"
) -> LearnedDecision:
    """The prior a document gets (`meeting_id`: its public_meetings id, if any)."""
    return load_prior(prior_fold(meeting_id, corpus_ids), vectors)


def prior_for_source(source: str, params: AlignmentParams) -> LearnedDecision:
    """The prior a document with this `source` gets when pre-aligned with
    `params` (the other fold's for a public_meetings meeting, by the id its source names)."""
    vectors = prior_vectors(params)
    if vectors is None:
        raise ValueError(
            f"no prior reads the evidence of the {params.aligner} aligner with "
            f"{params.scoring.method} scoring and {params.vectors.kind} vectors"
        )
    return prior_for(meeting_of_source(source), meeting_ids(), vectors)


def fit_prior(fitted_on: str, vectors: VectorKind = "word2vec") -> dict[str, object]:
    """The prior of fold `fitted_on`: its meetings aligned with the parameters tuned on it
    (word2vec vectors trained on the corpus's texts, as a project trains them on its own;
    lexical vectors are the same whatever texts they are made for), then on their reference
    `fit_decision` for a kind in PRIOR_CORRECTIONS, else `fit_calibration` with no
    corrections, over the turns whose reference is the annotators' work (`corrected_turns`,
    as `bench.align_quality` trains the learned decision): a stretch whose reference repeats
    an old pre-alignment would teach the prior to doubt turns an annotator would confirm."""
    meetings = load_public_meetings()
    fold = dict(zip(FOLDS, folds(meeting_ids()), strict=True))[fitted_on]
    params = load_params(defaults_file(fitted_on, vectors=vectors))
    word_vectors = corpus_vectors(meetings, params.vectors)
    gold = []
    for meeting in meetings:
        if meeting.id in fold:
            trusted = corrected_turns(meeting)
            evidence = turn_evidence(meeting, params, word_vectors)[1]
            gold.append((evidence.only(trusted), np.asarray(meeting.reference)[trusted]))
    decision = (
        fit_decision(gold) if vectors in PRIOR_CORRECTIONS else fit_calibration(gold, None, 1.0, {})
    )
    return {
        "metadata": {
            "fitted_on": sorted(fold),
            "turns": "corrected",
            "params": defaults_file(fitted_on, vectors=vectors).name,
            "script": "python -m workers.align.learning.prior",
        },
        "learned": decision.as_dict(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="Refit the shipped priors.")
    parser.add_argument("--vectors", choices=PRIOR_VECTORS, help="One kind only (default both).")
    kinds = [chosen] if (chosen := parser.parse_args().vectors) else list(PRIOR_VECTORS)
    for vectors in kinds:
        for fitted_on in FOLDS:
            stored = fit_prior(fitted_on, vectors)
            target = prior_file(fitted_on, vectors)
            target.write_text(json.dumps(stored, indent=2, sort_keys=True) + "\n", encoding="utf-8")
            summary = LearnedDecision.from_dict(stored["learned"]).summary()  # type: ignore[arg-type]
            print(f"{target.name}: {summary}")


if __name__ == "__main__":
    main()
