"""What the linear-segmentation baselines share: turn vectors and blocks turned into labels.

TextTiling and C99 only cut the transcript into blocks; given the number of report segments
(the paper's "oracle segment count"), the k-th block is labelled with report segment k, which
is how the paper scores them against the alignment reference.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from workers.align.document_model import Meeting
from workers.align.scoring.tokens import Vocabulary, count_matrix, lexical_tokens


def turn_word_counts(meeting: Meeting) -> sp.csr_matrix:
    """(turns, vocabulary) counts of each turn's lexical tokens."""
    vocabulary = Vocabulary()
    encoded = [vocabulary.encode(lexical_tokens(turn.text)) for turn in meeting.transcript.turns]
    return count_matrix(encoded, max(len(vocabulary), 1))


def labels_from_boundaries(n_turns: int, boundaries: np.ndarray) -> np.ndarray:
    """Turn t gets the number of boundaries at or before it; a boundary b starts block at t=b."""
    starts = np.zeros(n_turns, dtype=np.int64)
    starts[np.asarray(boundaries, dtype=np.int64)] = 1
    return np.cumsum(starts)


def block_count(meeting: Meeting) -> int:
    return max(1, min(len(meeting.report.segments), len(meeting.transcript.turns)))
