"""Word vectors: lexical ones that need no training (`lexical.py`), trained with gensim on the
project's own texts, or read from a user's file.

Nothing is ever downloaded. Training is deterministic for a given text set and settings (one
worker thread, a fixed seed and a process-independent hash for the initial vectors), and its
result is cached in memory and on disk under a key of the texts and settings, so a text set is
trained once and every later align/evaluate/tune run reuses the vectors.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import tempfile
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Literal

import numpy as np
from gensim.models import KeyedVectors, Word2Vec
from gensim.models.callbacks import CallbackAny2Vec

from workers.align.document_model import ReaderError
from workers.align.scoring.lexical import lexical_vectors, sentence_words
from workers.align.scoring.tokens import lexical_tokens
from workers.align.setting_fields import setting

DEFAULT_CACHE_DIRECTORY = Path(
    os.environ.get("TANDEM_VECTOR_CACHE", Path.home() / ".cache" / "tandem" / "word-vectors")
)

_MEMORY_CACHE: dict[str, KeyedVectors] = {}


VectorKind = Literal["word2vec", "lexical"]

EpochCallback = Callable[[int, int], None]
"""Told (epochs done, epochs in all) when training starts and after each epoch: how a caller
shows progress without the engine knowing about terminals."""


@dataclass(frozen=True)
class TrainingSettings:
    """Which word vectors embedding scoring reads when the user brings none, and how word2vec
    is trained on a project's texts (the other settings apply to word2vec only)."""

    kind: VectorKind = setting(
        "word2vec",
        "word2vec trained on the project's texts, or lexical vectors that need no training "
        "(stems weighted by their rarity in the language; for projects of a few documents)",
    )
    dimensions: int = setting(100, "size of a word vector")
    window: int = setting(5, "words on each side that count as a word's context")
    min_count: int = setting(2, "a word seen fewer times gets no vector")
    epochs: int = setting(10, "passes over the texts")
    skip_gram: bool = setting(True, "skip-gram (true) or CBOW (false)")
    seed: int = setting(1, "random seed, so training is reproducible")
    workers: int = setting(1, "training threads (1 keeps training reproducible)")


def stable_hash(text: str) -> int:
    """Seeds gensim's initial vectors independently of PYTHONHASHSEED (its default is hash())."""
    return zlib.crc32(text.encode("utf-8"))


def training_key(sentences: Iterable[str], settings: TrainingSettings) -> str:
    """Names a word2vec training; `kind` is left out, so the keys of vectors trained before
    lexical vectors existed still name the same training."""
    fields = asdict(settings)
    del fields["kind"]
    digest = hashlib.sha256(json.dumps(fields, sort_keys=True).encode())
    for sentence in sentences:
        digest.update(sentence.encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()[:32]


def text_vectors(
    sentences: Sequence[str],
    settings: TrainingSettings,
    language: str | None,
    on_epoch: EpochCallback | None = None,
) -> KeyedVectors:
    """The vectors `settings` asks for, for the words of `sentences` (in `language`)."""
    if settings.kind == "lexical":
        return lexical_vectors(sentence_words(sentences), language)
    return train_vectors(sentences, settings, on_epoch=on_epoch)


class _EpochReporter(CallbackAny2Vec):
    """Passes gensim's training events on to an EpochCallback."""

    def __init__(self, on_epoch: EpochCallback, epochs: int) -> None:
        self.on_epoch = on_epoch
        self.epochs = epochs
        self.done = 0

    def on_train_begin(self, model: Word2Vec) -> None:
        self.on_epoch(0, self.epochs)

    def on_epoch_end(self, model: Word2Vec) -> None:
        self.done += 1
        self.on_epoch(self.done, self.epochs)


def train_vectors(
    sentences: Sequence[str],
    settings: TrainingSettings = TrainingSettings(),
    cache_directory: Path | None = DEFAULT_CACHE_DIRECTORY,
    on_epoch: EpochCallback | None = None,
) -> KeyedVectors:
    """Word2Vec vectors for `sentences`, from the caches when this text set was seen before
    (`on_epoch` hears of training only when there is some)."""
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
            callbacks=(_EpochReporter(on_epoch, settings.epochs),) if on_epoch else (),
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


def read_vectors(data: bytes, name: str) -> KeyedVectors:
    """Vectors from the bytes of a word2vec file (text or binary) or a fastText `.vec`, as a
    user uploads them; a ReaderError says what is wrong. Text when the bytes are UTF-8 (the
    floats of a binary file practically never are), whatever the name says; the header line
    `words dimensions` is checked first so that a wrong file fails fast and clearly."""
    if not data.strip():
        raise ReaderError(name, "whole file", "the file is empty")
    header = data.split(b"\n", 1)[0].split()
    if len(header) != 2 or not all(field.isdigit() for field in header) or b"0" in header:
        raise ReaderError(
            name,
            "line 1",
            "expected a header line 'words dimensions' (word2vec or fastText .vec format)",
        )
    binary = not _is_utf8(data)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "vectors"
        path.write_bytes(data)
        try:
            vectors = KeyedVectors.load_word2vec_format(str(path), binary=binary)
        except (ValueError, EOFError, UnicodeDecodeError, struct.error) as error:
            kind = "binary" if binary else "text"
            raise ReaderError(name, "whole file", f"not a word2vec {kind} file: {error}") from error
    if not np.isfinite(vectors.vectors).all():
        raise ReaderError(name, "whole file", "some vectors hold NaN or infinite values")
    return vectors


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def restricted(vectors: KeyedVectors, words: Iterable[str]) -> KeyedVectors:
    """Only the given words' vectors: a large pretrained file cut down to a project's words."""
    kept = sorted({word for word in words if word in vectors.key_to_index})
    subset = KeyedVectors(vector_size=vectors.vector_size)
    if kept:
        subset.add_vectors(kept, np.array([vectors[word] for word in kept], dtype=np.float32))
    return subset


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
