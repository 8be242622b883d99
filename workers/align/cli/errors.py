"""The command line's two kinds of failure, told apart by their exit status (see `main`)."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gensim.models import KeyedVectors


class UsageError(Exception):
    """The command line asks for something that cannot be done as written: exit status 2.
    The message names the option and says what to give instead."""


class DataError(Exception):
    """A file's content cannot be used: exit status 1. The message names the file, the place
    in it and what to do."""


def vectors_option(path: str | Path) -> KeyedVectors:
    """`--vectors FILE` loaded, or a DataError naming the file and the formats it may be
    (gensim's own errors on a wrong file are tracebacks of its parser)."""
    from workers.align.scoring.vectors import load_vectors

    try:
        return load_vectors(path)
    except (ValueError, EOFError, IndexError, pickle.UnpicklingError) as error:
        raise DataError(
            f"--vectors {path}: not a word-vectors file ({error}); give a word2vec file (text "
            "with a 'words dimensions' first line, or binary .bin), a fastText .vec or .bin, "
            "or gensim KeyedVectors saved as .kv"
        ) from error
