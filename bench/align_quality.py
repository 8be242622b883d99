"""Two-fold cross-validated quality on public_meetings as JSON (`python -m bench.align_quality`).

Each meeting is aligned with the shipped parameters tuned on the other fold only
(workers/align/defaults), then metrics are micro-averaged per fold and over all 22 meetings.
"""

from __future__ import annotations

import json

from workers.align.corpus import load_public_meetings, meeting_ids
from workers.align.folds import folds, shipped_defaults
from workers.align.metrics import merge_subturns, micro_average, score_meeting
from workers.align.pipeline import align_meeting, corpus_vectors


def main() -> dict:
    meetings = load_public_meetings()
    corpus = meeting_ids()
    fold_a, fold_b = folds(corpus)
    params = {m.id: shipped_defaults(m.id, corpus) for m in meetings}
    vectors = corpus_vectors(meetings, params[meetings[0].id].vectors)
    scores = {}
    for meeting in meetings:
        result = align_meeting(meeting, params[meeting.id], vectors)
        merged = merge_subturns(
            [t.id for t in meeting.transcript.turns],
            meeting.reference,
            result.labels,
            [t.word_count for t in meeting.transcript.turns],
        )
        scores[meeting.id] = score_meeting(*merged)
    return {
        "protocol": "two folds of 11 (sorted ids); each fold uses params tuned on the other",
        "fold_a": micro_average([scores[i] for i in fold_a]).as_dict(),
        "fold_b": micro_average([scores[i] for i in fold_b]).as_dict(),
        "all": micro_average(list(scores.values())).as_dict(),
    }


if __name__ == "__main__":
    print(json.dumps(main(), indent=2))
