"""Issue #22's scale figures (`python -m bench.scale --json`, `--only joined` for goal 1 alone).

Goal 1, the engine on a day-long document: all 22 public_meetings meetings joined into one
document in order (27,008 transcript x 24,498 report sentences, a 2.5 GiB similarity matrix
if it were held whole) and aligned with the shipped defaults for new documents
(`tuned-on-fold-a.json`). Each timed alignment runs in a subprocess of its own that loads the
corpus and the cached word vectors, then aligns once: `joined_seconds` is that alignment's
wall time, `joined_peak_mib` the subprocess's peak RSS from the kernel (`os.wait4`), the whole
process with Python, numpy, numba, gensim and the corpus (its RSS just before the alignment is
reported beside it). Medians of `--repeats` subprocesses.

Accuracy is cross-fitted as `python -m bench.align_quality` is: each meeting is scored with
the parameters tuned on the other fold. The joined document is aligned once with each fold's
parameters and every meeting is scored on its own turns of the alignment made with its
cross-fitted ones, in its own segment numbering (a turn given another meeting's segment is
wrong). `separate_*` aligns the meetings one by one, the benchmark's own figures.

`--check-whole` also aligns the joined document from its whole similarity matrix held in
memory (3.4 GiB peak RSS) and says whether labels and confidences are identical.

The other goals (the editor on a day-long document, writes under load, projects of 2,000
documents, tuning across machines) each run their own bench script (`bench/scale_goals.py`)
and add its JSON under their name, or a sentence saying what they need that is missing:
PostgreSQL for the server goals, for instance, in a DATABASE_URL of the bench's own, since
they migrate it and add projects to it. `--only GOAL` runs one goal.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from gensim.models import KeyedVectors

from bench.align_quality import score_alignment
from bench.scale_goals import GOALS
from workers.align.corpus import joined_meeting, load_public_meetings, meeting_ids
from workers.align.document_model import Meeting
from workers.align.folds import NEW_DOCUMENT_DEFAULTS, defaults_file, shipped_defaults
from workers.align.layout import sentence_layout
from workers.align.metrics import micro_average
from workers.align.params import AlignmentParams, load_params
from workers.align.paths.blocks import DEFAULT_BLOCKING, Blocking
from workers.align.pipeline import AlignmentResult, align_meeting, corpus_vectors

ROOT = Path(__file__).resolve().parent.parent
OTHER_MEETING = -2
"""A joined document's label for a turn placed in another meeting's part of the report: never
a reference label, and not 'unaligned' either."""


def _rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def _new_document_params() -> AlignmentParams:
    return load_params(defaults_file(NEW_DOCUMENT_DEFAULTS))


def measured_alignment() -> dict[str, float]:
    """The subprocess's work: one alignment of the joined document, timed."""
    meetings = load_public_meetings()
    params = _new_document_params()
    vectors = corpus_vectors(meetings, params.vectors)
    joined = joined_meeting(meetings)
    before = _rss_mib()
    started = time.perf_counter()
    align_meeting(joined, params, vectors)
    return {"seconds": time.perf_counter() - started, "rss_before_alignment_mib": before}


def _measure_in_subprocess() -> dict[str, float]:
    process = subprocess.Popen(
        [sys.executable, "-m", "bench.scale", "--measured-alignment"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
    )
    assert process.stdout is not None
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise RuntimeError(f"the measured alignment exited with {process.returncode}")
    return {**json.loads(output), "peak_mib": usage.ru_maxrss / 1024}


def _meeting_labels(labels: np.ndarray, first_segment: int, meeting: Meeting) -> np.ndarray:
    """A meeting's part of a joined alignment in the meeting's own segment numbering."""
    n_segments = len(meeting.report.segments)
    own = (labels >= first_segment) & (labels < first_segment + n_segments)
    return np.where(labels < 0, labels, np.where(own, labels - first_segment, OTHER_MEETING))


def accuracy(check_whole: bool) -> dict:
    meetings = load_public_meetings()
    corpus = meeting_ids()
    crossfitted = {m.id: shipped_defaults(m.id, corpus) for m in meetings}
    vectors = corpus_vectors(meetings, crossfitted[meetings[0].id].vectors)
    joined = joined_meeting(meetings)
    joined_results = {
        params: align_meeting(joined, params, vectors)
        for params in dict.fromkeys(crossfitted.values())
    }
    separate, together = [], []
    first_turn = first_segment = 0
    for meeting in meetings:
        params = crossfitted[meeting.id]
        separate.append(score_alignment(meeting, align_meeting(meeting, params, vectors).labels))
        turns = slice(first_turn, first_turn + len(meeting.transcript.turns))
        labels = _meeting_labels(joined_results[params].labels[turns], first_segment, meeting)
        together.append(score_alignment(meeting, labels))
        first_turn = turns.stop
        first_segment += len(meeting.report.segments)
    separate_summary, joined_summary = micro_average(separate), micro_average(together)
    figures = {
        "joined_segment_accuracy": joined_summary.segment_accuracy,
        "separate_segment_accuracy": separate_summary.segment_accuracy,
        "joined_word_accuracy": joined_summary.word_accuracy,
        "separate_word_accuracy": separate_summary.word_accuracy,
        "joined_windowdiff": joined_summary.windowdiff,
        "separate_windowdiff": separate_summary.windowdiff,
        "accuracy_protocol": "cross-fitted: every meeting scored with the parameters tuned on "
        "the other fold, in the joined document as when aligned alone",
    }
    if check_whole:
        params = _new_document_params()
        figures["joined_equals_whole_matrix"] = _equals_whole_matrix(
            joined, params, vectors, joined_results[params]
        )
    return figures


def _equals_whole_matrix(
    joined: Meeting, params: AlignmentParams, vectors: KeyedVectors, blocked: AlignmentResult
) -> bool:
    whole = align_meeting(joined, params, vectors, Blocking(max_pairs=2**62))
    return bool(
        np.array_equal(blocked.labels, whole.labels)
        and np.array_equal(blocked.confidence, whole.confidence)
    )


def joined_figures(repeats: int, check_whole: bool) -> dict:
    meetings = load_public_meetings()
    corpus_vectors(meetings, _new_document_params().vectors)  # trained and cached before timing
    layout = sentence_layout(joined_meeting(meetings))
    shape = (len(layout.transcript_sentences), len(layout.report_sentences))
    runs = [_measure_in_subprocess() for _ in range(repeats)]
    return {
        "joined_seconds": statistics.median(run["seconds"] for run in runs),
        "joined_peak_mib": statistics.median(run["peak_mib"] for run in runs),
        **accuracy(check_whole),
        "joined": {
            "meetings": len(meetings),
            "turns": layout.n_turns,
            "segments": layout.n_segments,
            "transcript_sentences": shape[0],
            "report_sentences": shape[1],
            "whole_matrix_mib": shape[0] * shape[1] * 4 / 2**20,
            "blocks": len(DEFAULT_BLOCKING.row_blocks(*shape)),
            "block_max_pairs": DEFAULT_BLOCKING.max_pairs,
            "params": defaults_file(NEW_DOCUMENT_DEFAULTS).name,
            "runs": runs,
            "peak_is": "the subprocess's whole peak RSS (kernel maxrss), interpreter and "
            "corpus included",
        },
        "targets": {"joined_seconds": 60, "joined_peak_mib": 1024, "accuracy_gap_points": 1},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--only", choices=["joined", *GOALS], help="measure one goal only")
    parser.add_argument("--repeats", type=int, default=3, help="timed subprocesses (median)")
    parser.add_argument(
        "--check-whole",
        action="store_true",
        help="also align the joined document from its whole matrix and compare (3.4 GiB)",
    )
    parser.add_argument("--measured-alignment", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measured_alignment:
        print(json.dumps(measured_alignment()))
        return
    figures = {}
    if args.only in (None, "joined"):
        figures.update(joined_figures(args.repeats, args.check_whole))
    for name, measure in GOALS.items():
        if args.only in (None, name):
            figures[name] = measure()
            print(f"[bench.scale] {name}: {json.dumps(figures[name])}", file=sys.stderr)
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    for key, value in figures.items():
        shown = json.dumps(value) if isinstance(value, dict) else value
        print(f"{key}: {round(value, 2) if isinstance(value, float) else shown}")


if __name__ == "__main__":
    main()
