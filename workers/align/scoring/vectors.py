"""Word vectors: trained with gensim on the project's own texts, or read from a user's file.

Nothing is ever downloaded. Training is deterministic for a given text set and settings (one
worker thread, a fixed seed and a process-independent hash for the initial vectors), and its
result is cached in memory and on disk under a key of the texts and settings, so a text set is
trained once and every later align/evaluate/tune run reuses the vectors.
"""

from __future__ import annotations

import hashlib
import json
import os
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
from gensim.models import KeyedVectors, Word2Vec

from workers.align.scoring.tokens import lexical_tokens

DEFAULT_CACHE_DIRECTORY = Path(
    os.environ.get("TANDEM_VECTOR_CACHE", Path.home() / ".cache" / "tandem" / "word-vectors")
)

_MEMORY_CACHE: dict[str, KeyedVectors] = {}


@dataclass(frozen=True)
class TrainingSettings:
    dimensions: int = 100
    window: int = 5
    min_count: int = 2
    epochs: int = 10
    skip_gram: bool = True
    seed: int = 1
    workers: int = 1


def stable_hash(text: str) -> int:
    """Seeds gensim's initial vectors independently of PYTHONHASHSEED (its default is hash())."""
    return zlib.crc32(text.encode("utf-8"))


def training_key(sentences: Iterable[str], settings: TrainingSettings) -> str:
    digest = hashlib.sha256(json.dumps(asdict(settings), sort_keys=True).encode())
    for sentence in sentences:
        digest.update(sentence.encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()[:32]


def train_vectors(
    sentences: Sequence[str],
    settings: TrainingSettings = TrainingSettings(),
    cache_directory: Path | None = DEFAULT_CACHE_DIRECTORY,
) -> KeyedVectors:
    """Word2Vec vectors for `sentences`, from the caches when this text set was seen before."""
    key = training_key(sentences, settings)
    if key in _MEMORY_CACHE:
        return _MEMORY_CACHE[key]
    cached_file = cache_directory / f"{key}.kv" if cache_directory is not None else None
    if cached_file is not None and cached_file.exists():
        vectors = KeyedVectors.load(str(cached_file))
    else:
        model = Word2Vec(
            sentences=[lexical_tokens(sentence) for sentence in sentences],
            vector_size=settings.dimensions,
            window=settings.window,
            min_count=settings.min_count,
            epochs=settings.epochs,
            sg=int(settings.skip_gram),
            seed=settings.seed,
            workers=settings.workers,
            hashfxn=stable_hash,
        )
        vectors = model.wv
        if cached_file is not None:
            cached_file.parent.mkdir(parents=True, exist_ok=True)
            temporary = cached_file.with_suffix(f".{os.getpid()}.tmp")
            vectors.save(str(temporary))
            temporary.replace(cached_file)
    _MEMORY_CACHE[key] = vectors
    return vectors


def load_vectors(path: str | Path) -> KeyedVectors:
    """A user-supplied word2vec (.bin/.txt/.vec) or fastText (.bin from fastText) file."""
    path = Path(path)
    if path.suffix == ".kv":
        return KeyedVectors.load(str(path))
    if path.suffix == ".bin":
        try:
            return KeyedVectors.load_word2vec_format(str(path), binary=True)
        except (ValueError, UnicodeDecodeError):
            from gensim.models.fasttext import load_facebook_vectors

            return load_facebook_vectors(str(path))
    return KeyedVectors.load_word2vec_format(str(path), binary=False)


def lookup_table(
    vectors: KeyedVectors, vocabulary: dict[str, int]
) -> tuple[np.ndarray, np.ndarray]:
    """(vocab, dim) float32 vectors in vocabulary-id order and a mask of the words that have one."""
    table = np.zeros((len(vocabulary), vectors.vector_size), dtype=np.float32)
    known = np.zeros(len(vocabulary), dtype=bool)
    for word, index in vocabulary.items():
        if word in vectors.key_to_index:
            table[index] = vectors[word]
            known[index] = True
    return table, known
