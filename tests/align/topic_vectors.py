"""Small word-vector files the tests write: each word points along its topic's axis, so two
sentences are similar exactly when they share a topic. No download, and a known answer."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from gensim.models import KeyedVectors

COUNCIL_TOPICS = {
    "opening": ["evening", "everyone", "session", "open", "start", "closed", "good"],
    "library": ["library", "library's", "budget", "roof", "leaks", "winter", "books", "wet"],
    "parking": ["parking", "downtown", "scarce", "drivers", "circle", "minutes", "space"],
    "meters": ["vote", "meters", "month", "we'll"],
    "weather": ["window", "cold", "somebody", "close"],
}


def topic_vectors(topics: dict[str, list[str]] = COUNCIL_TOPICS) -> KeyedVectors:
    rng = np.random.default_rng(0)
    words, rows = [], []
    for axis, members in enumerate(topics.values()):
        for word in members:
            row = rng.normal(0.0, 0.05, size=len(topics) + 3)
            row[axis] += 1.0
            words.append(word)
            rows.append(row)
    vectors = KeyedVectors(vector_size=len(rows[0]))
    vectors.add_vectors(words, np.array(rows, dtype=np.float32))
    return vectors


def write_topic_vectors(path: Path, binary: bool = False) -> Path:
    """word2vec format: text (`.txt`, `.vec`: fastText's own text format) or binary (`.bin`)."""
    topic_vectors().save_word2vec_format(str(path), binary=binary)
    return path
