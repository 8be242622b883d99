"""Two-fold cross-validated quality on public_meetings as JSON (`python -m bench.align_quality`).

Each meeting is aligned with the shipped parameters tuned on the other fold only
(workers/align/defaults), then metrics are micro-averaged per fold and over all 22 meetings.
The baselines need no tuning: the diagonal path and TextTiling / C99 given the number of report
segments, scored the same way. `all_corrected_reference` scores the same alignments without the
reference turns known to repeat the uncorrected pre-alignment (`UNCORRECTED_REFERENCE`).
`hmm` is TalkSumm's HMM (report sentences as states, each turn labelled by its words'
majority segment), cross-fitted the same way with its own files (hmm-tuned-on-fold-*.json).
"""

from __future__ import annotations

import json

import numpy as np

from workers.align.c99 import c99_labels
from workers.align.corpus import corrected_turns, load_public_meetings, meeting_ids
from workers.align.folds import folds, shipped_defaults
from workers.align.metrics import MeetingScores, merge_subturns, micro_average, score_meeting
from workers.align.model import Meeting
from workers.align.params import AlignmentParams
from workers.align.pipeline import align_meeting, corpus_vectors
from workers.align.texttiling import texttiling_labels


def score_alignment(meeting: Meeting, labels, keep: np.ndarray | None = None) -> MeetingScores:
    """Scores over the turns in `keep` (all by default)."""
    keep = np.ones(len(labels), dtype=bool) if keep is None else keep
    turns = [turn for turn, kept in zip(meeting.transcript.turns, keep, strict=True) if kept]
    merged = merge_subturns(
        [t.id for t in turns],
        np.asarray(meeting.reference)[keep],
        np.asarray(labels)[keep],
        [t.word_count for t in turns],
    )
    return score_meeting(*merged)


def _figures(scores: dict[str, MeetingScores], fold_a: list[str], fold_b: list[str]) -> dict:
    return {
        "fold_a": micro_average([scores[i] for i in fold_a]).as_dict(),
        "fold_b": micro_average([scores[i] for i in fold_b]).as_dict(),
        "all": micro_average(list(scores.values())).as_dict(),
    }


def main() -> dict:
    meetings = load_public_meetings()
    corpus = meeting_ids()
    fold_a, fold_b = folds(corpus)
    params = {m.id: shipped_defaults(m.id, corpus) for m in meetings}
    vectors = corpus_vectors(meetings, params[meetings[0].id].vectors)
    labels = {m.id: align_meeting(m, params[m.id], vectors).labels for m in meetings}
    aligned = {m.id: score_alignment(m, labels[m.id]) for m in meetings}
    corrected = [score_alignment(m, labels[m.id], corrected_turns(m)) for m in meetings]
    hmm_params = {m.id: shipped_defaults(m.id, corpus, "hmm") for m in meetings}
    hmm_vectors = corpus_vectors(meetings, hmm_params[meetings[0].id].vectors)
    hmm_labels = {m.id: align_meeting(m, hmm_params[m.id], hmm_vectors).labels for m in meetings}
    hmm = {m.id: score_alignment(m, hmm_labels[m.id]) for m in meetings}
    hmm_corrected = [score_alignment(m, hmm_labels[m.id], corrected_turns(m)) for m in meetings]
    diagonal = AlignmentParams.of("diagonal")
    baselines = {
        "diagonal": {m.id: score_alignment(m, align_meeting(m, diagonal).labels) for m in meetings},
        "texttiling": {m.id: score_alignment(m, texttiling_labels(m)) for m in meetings},
        "c99": {m.id: score_alignment(m, c99_labels(m)) for m in meetings},
    }
    return {
        "protocol": "two folds of 11 (sorted ids); each fold uses params tuned on the other",
        **_figures(aligned, fold_a, fold_b),
        "all_corrected_reference": micro_average(corrected).as_dict(),
        "hmm": {
            **_figures(hmm, fold_a, fold_b),
            "all_corrected_reference": micro_average(hmm_corrected).as_dict(),
        },
        "baselines": {
            name: _figures(scores, fold_a, fold_b)["all"] for name, scores in baselines.items()
        },
    }


if __name__ == "__main__":
    print(json.dumps(main(), indent=2))
