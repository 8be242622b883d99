"""Speed and memory figures, what `python -m workers.align bench` prints: the compiled kernels
against their naive definitions, the whole corpus, a tuning grid, and the memory an alignment
needs beyond its similarity matrix."""

from __future__ import annotations

import resource
import time
import tracemalloc
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from workers.align.paths.dp import forward
from workers.align.paths.gapped_dp import GapSettings, gapped_forward
from workers.align.paths.turn_dp import TurnSettings, best_turn_labels
from workers.align.reference.dp import naive_forward
from workers.align.reference.gapped_dp import naive_gapped_path
from workers.align.reference.hmm import naive_viterbi
from workers.align.reference.turn_dp import naive_turn_labels
from workers.align.talks.hmm import HmmSettings, Transitions, transitions, uniform_start, viterbi

if TYPE_CHECKING:
    from gensim.models import KeyedVectors

    from workers.align.document_model import Meeting
    from workers.align.params import AlignmentParams

LARGEST_TURN_GRID = (850, 360)
"""About the largest meeting's transcript turns x report segments, the turn path's matrix."""
LARGEST_TALK = (68_769, 4_445, 6_000)
"""The largest meeting as the HMM sees it: spoken words, report sentences (states) and the
talk's vocabulary."""


def _talk_problem(
    words: int, states: int, vocabulary: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, Transitions]:
    rng = np.random.default_rng(0)
    table = np.log(rng.random((vocabulary, states), dtype=np.float32) + 1e-3)
    observations = rng.integers(0, vocabulary, words)
    start = uniform_start(np.ones(states, dtype=bool))
    return table, observations, start, transitions(states, words, HmmSettings())


def naive_ns_per_pair(size: int) -> dict[str, float]:
    """Wall time per cell of each path's slow definition (`workers.align.reference`) on a
    size x size problem: the denominator of the speedups the bench reports."""
    gains = np.random.default_rng(1).random((size, size), dtype=np.float32)
    table, observations, start, moves = _talk_problem(size, size, size)
    runs = {
        "dp": lambda: naive_forward(gains, 0.0, 1e-4),
        "gapped": lambda: naive_gapped_path(gains, 0.35, -0.1, 3.0),
        "turns": lambda: naive_turn_labels(gains.astype(np.float64) - 0.5, 4.0, 40.0),
        "hmm": lambda: naive_viterbi(table, observations.tolist(), start, moves),
    }
    figures = {}
    for name, run in runs.items():
        started = time.perf_counter()
        run()
        figures[name] = (time.perf_counter() - started) / size**2 * 1e9
    return figures


def kernel_ns_per_pair(rows: int = 3300, cols: int = 4400, repeats: int = 5) -> dict[str, float]:
    """Median wall time per cell of each path on a matrix the size of the largest meeting:
    sentence pairs for the forward kernels of the sentence paths, turns x segments for the
    whole turn path (forward and backtrace), spoken words x sentences for the HMM's Viterbi
    (forward and backtrace). The machine is shared, so the median is the honest figure."""
    gains = np.random.default_rng(0).random((rows, cols), dtype=np.float32)
    evidence = np.random.default_rng(0).standard_normal(LARGEST_TURN_GRID) * 20
    talk = _talk_problem(*LARGEST_TALK)
    runs = {
        "dp": (lambda: forward(gains, 0.0, 1e-4), gains.size),
        "gapped": (lambda: gapped_forward(gains, GapSettings()), gains.size),
        "turns": (lambda: best_turn_labels(evidence, TurnSettings()), evidence.size),
        "hmm": (lambda: viterbi(*talk), LARGEST_TALK[0] * LARGEST_TALK[1]),
    }
    figures = {}
    for name, (run, cells) in runs.items():
        run()
        times = []
        for _ in range(repeats):
            started = time.perf_counter()
            run()
            times.append(time.perf_counter() - started)
        figures[name] = float(np.median(times)) / cells * 1e9
    return figures


def _corpus_setup(
    aligner: str | None = None,
) -> tuple[list[Meeting], dict[str, AlignmentParams], KeyedVectors]:
    from workers.align.corpus import load_public_meetings, meeting_ids
    from workers.align.folds import shipped_defaults
    from workers.align.pipeline import corpus_vectors

    meetings = load_public_meetings()
    corpus = meeting_ids()
    params = {m.id: shipped_defaults(m.id, corpus, aligner) for m in meetings}
    vectors = corpus_vectors(meetings, next(iter(params.values())).vectors)
    return meetings, params, vectors


def corpus_alignment_seconds(repeats: int = 3, aligner: str | None = None) -> dict[str, Any]:
    """Median wall time to align all public_meetings with the shipped defaults (of
    `aligner` when given; vectors pre-trained)."""
    from workers.align.pipeline import align_meeting

    meetings, params, vectors = _corpus_setup(aligner)
    align_meeting(meetings[0], params[meetings[0].id], vectors)
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        for meeting in meetings:
            align_meeting(meeting, params[meeting.id], vectors)
        times.append(time.perf_counter() - started)
    pairs = sum(
        sum(len(t.sentences) for t in m.transcript.turns)
        * sum(len(s.sentences) for s in m.report.segments)
        for m in meetings
    )
    words_by_sentences = sum(
        sum(t.word_count for t in m.transcript.turns)
        * sum(len(s.sentences) for s in m.report.segments)
        for m in meetings
    )
    return {
        "seconds": float(np.median(times)),
        "sentence_pairs": pairs,
        "words_x_sentences": words_by_sentences,
    }


def hmm_largest_meeting(repeats: int = 3) -> dict[str, float]:
    """The HMM's parts on the largest meeting with its real emissions (shipped fold-A HMM
    parameters): building the emission table, and Viterbi per (word, sentence) cell, medians.
    Real emissions change the running bests far less often than random ones."""
    from workers.align.talks.hmm_alignment import emissions, spoken_words

    meetings, params, vectors = _corpus_setup("hmm")
    largest = max(
        meetings,
        key=lambda m: (
            sum(t.word_count for t in m.transcript.turns)
            * sum(len(s.sentences) for s in m.report.segments)
        ),
    )
    settings = params[largest.id].path
    assert isinstance(settings, HmmSettings)
    turns = spoken_words([turn.sentences for turn in largest.transcript.turns])
    states = spoken_words([[s] for segment in largest.report.segments for s in segment.sentences])
    vocabulary: dict[str, int] = {}
    observations = np.array(
        [vocabulary.setdefault(word, len(vocabulary)) for words in turns for word in words]
    )
    centre = params[largest.id].scoring.centre
    build = lambda: emissions(list(vocabulary), states, vectors, settings, centre)  # noqa: E731
    table = build().table
    start = uniform_start(np.ones(len(states), dtype=bool))
    moves = transitions(len(states), len(observations), settings)
    viterbi(table, observations, start, moves)
    build_times, decode_times = [], []
    for _ in range(repeats):
        started = time.perf_counter()
        build()
        build_times.append(time.perf_counter() - started)
        started = time.perf_counter()
        viterbi(table, observations, start, moves)
        decode_times.append(time.perf_counter() - started)
    return {
        "words": len(observations),
        "sentences": len(states),
        "emission_seconds": float(np.median(build_times)),
        "viterbi_ns_per_cell": float(np.median(decode_times))
        / (len(observations) * len(states))
        * 1e9,
    }


def alignment_memory() -> dict[str, float]:
    """Peak memory numpy allocates while aligning the largest meeting, over its similarity
    matrix (float32): what a worker needs per meeting beyond the process itself."""
    from workers.align.layout import sentence_layout
    from workers.align.pipeline import align_meeting

    meetings, params, vectors = _corpus_setup()
    largest = max(
        meetings,
        key=lambda m: (
            len(sentence_layout(m).transcript_sentences) * len(sentence_layout(m).report_sentences)
        ),
    )
    layout = sentence_layout(largest)
    matrix_bytes = len(layout.transcript_sentences) * len(layout.report_sentences) * 4
    align_meeting(largest, params[largest.id], vectors)
    tracemalloc.start()
    align_meeting(largest, params[largest.id], vectors)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "largest_similarity_matrix_mib": matrix_bytes / 2**20,
        "alignment_peak_mib": peak / 2**20,
        "peak_over_matrix": peak / matrix_bytes,
    }


def tuning_seconds() -> dict[str, Any]:
    """Every setting of the shipped grid on all 22 meetings (no halving), as one Celery slice."""
    from workers.align.params import AlignmentParams
    from workers.align.tuning.tune import evaluate_grid_slice, expand_grid, named_grid

    meetings, _, vectors = _corpus_setup()
    settings = expand_grid(AlignmentParams(), named_grid("default"))
    started = time.perf_counter()
    evaluate_grid_slice(meetings, settings, vectors)
    return {
        "settings": len(settings),
        "meetings": len(meetings),
        "seconds": time.perf_counter() - started,
    }


StepCallback = Callable[[str, int, int], None]
"""Told (the step starting, steps done, steps in all) before each step and ("", all, all) at
the end: how the command line shows the bench's progress."""


def run_benchmarks(
    naive_size: int = 60, tuning: bool = True, on_step: StepCallback | None = None
) -> dict[str, Any]:
    steps: dict[str, Callable[[], dict[str, Any]]] = {
        "naive paths": lambda: naive_ns_per_pair(naive_size),
        "kernels": kernel_ns_per_pair,
        "corpus alignment": corpus_alignment_seconds,
        "hmm corpus alignment": lambda: corpus_alignment_seconds(aligner="hmm"),
        "hmm on the largest meeting": hmm_largest_meeting,
        "memory": alignment_memory,
        **({"tuning grid": tuning_seconds} if tuning else {}),
    }
    results: dict[str, dict[str, Any]] = {}
    for done, (name, step) in enumerate(steps.items()):
        if on_step is not None:
            on_step(name, done, len(steps))
        results[name] = step()
    if on_step is not None:
        on_step("", len(steps), len(steps))
    naive, kernels = results["naive paths"], results["kernels"]
    corpus, talks = results["corpus alignment"], results["hmm corpus alignment"]
    largest_talk, memory = results["hmm on the largest meeting"], results["memory"]
    figures: dict[str, Any] = {
        "kernel_ns_per_pair": {name: round(value, 2) for name, value in kernels.items()},
        "naive_ns_per_pair": {name: round(value, 1) for name, value in naive.items()},
        "speedup": {name: round(naive[name] / kernels[name], 1) for name in kernels},
        "corpus_alignment_seconds": round(corpus["seconds"], 2),
        "corpus_sentence_pairs": corpus["sentence_pairs"],
        "hmm_corpus_alignment_seconds": round(talks["seconds"], 2),
        "hmm_corpus_words_x_sentences": talks["words_x_sentences"],
        "hmm_over_turns_per_cell": round(kernels["hmm"] / kernels["turns"], 2),
        "hmm_largest_meeting": {
            "words": largest_talk["words"],
            "sentences": largest_talk["sentences"],
            "emission_seconds": round(largest_talk["emission_seconds"], 2),
            "viterbi_ns_per_cell": round(largest_talk["viterbi_ns_per_cell"], 2),
        },
        "largest_similarity_matrix_mib": round(memory["largest_similarity_matrix_mib"], 1),
        "alignment_peak_mib": round(memory["alignment_peak_mib"], 1),
        "alignment_peak_over_matrix": round(memory["peak_over_matrix"], 2),
    }
    if tuning:
        tune = results["tuning grid"]
        figures["tuning"] = {**tune, "seconds": round(tune["seconds"], 1)}
    figures["process_peak_rss_mib"] = round(
        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1
    )
    return figures
