"""Speed figures: the compiled kernel against the naive definition, and the whole corpus."""

from __future__ import annotations

import resource
import time
from typing import Any

import numpy as np

from workers.align.dp import forward


def _naive_forward_seconds(size: int) -> float:
    from importlib import util
    from pathlib import Path

    reference = Path(__file__).resolve().parents[2] / "tests" / "align" / "reference_dp.py"
    spec = util.spec_from_file_location("reference_dp", reference)
    if spec is None or spec.loader is None:
        raise FileNotFoundError(reference)
    module = util.module_from_spec(spec)
    spec.loader.exec_module(module)
    gains = np.random.default_rng(1).random((size, size), dtype=np.float32)
    started = time.perf_counter()
    module.naive_forward(gains, 0.0, 1e-4)
    return time.perf_counter() - started


def kernel_ns_per_pair(rows: int = 3300, cols: int = 4400, repeats: int = 3) -> float:
    gains = np.random.default_rng(0).random((rows, cols), dtype=np.float32)
    forward(gains, 0.0, 1e-4)
    best = np.inf
    for _ in range(repeats):
        started = time.perf_counter()
        forward(gains, 0.0, 1e-4)
        best = min(best, time.perf_counter() - started)
    return best / gains.size * 1e9


def corpus_alignment_seconds() -> dict[str, Any]:
    """Wall time to align all public_meetings with the shipped defaults (vectors pre-trained)."""
    from workers.align.corpus import load_public_meetings, meeting_ids
    from workers.align.folds import shipped_defaults
    from workers.align.pipeline import align_meeting, corpus_vectors

    meetings = load_public_meetings()
    corpus = meeting_ids()
    params = {m.id: shipped_defaults(m.id, corpus) for m in meetings}
    vectors = corpus_vectors(meetings, next(iter(params.values())).vectors)
    align_meeting(meetings[0], params[meetings[0].id], vectors)
    started = time.perf_counter()
    pairs = 0
    for meeting in meetings:
        align_meeting(meeting, params[meeting.id], vectors)
        rows = sum(len(t.sentences) for t in meeting.transcript.turns)
        pairs += rows * sum(len(s.sentences) for s in meeting.report.segments)
    return {"seconds": time.perf_counter() - started, "sentence_pairs": pairs}


def run_benchmarks(naive_size: int = 60) -> dict[str, Any]:
    naive_seconds = _naive_forward_seconds(naive_size)
    kernel = kernel_ns_per_pair()
    corpus = corpus_alignment_seconds()
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    largest = 3331 * 4445 * 4
    return {
        "kernel_ns_per_pair": round(kernel, 2),
        "naive_ns_per_pair": round(naive_seconds / naive_size**2 * 1e9, 1),
        "speedup": round(naive_seconds / naive_size**2 * 1e9 / kernel, 1),
        "corpus_alignment_seconds": round(corpus["seconds"], 2),
        "corpus_sentence_pairs": corpus["sentence_pairs"],
        "peak_memory_mib": round(peak_kib / 1024, 1),
        "largest_similarity_matrix_mib": round(largest / 2**20, 1),
    }
